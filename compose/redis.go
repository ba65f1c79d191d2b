package compose

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/compose/internal/clockshift"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/procs"
)

// Persistence modes of the local masters.
var persistences = []string{"none", "everysec", "always"}

// RedisOptions describe local masters to start.
type RedisOptions struct {
	Masters     int       `json:"masters" flag:"masters" help:"number of local Redis masters to start" applies:"redis,local"`
	Persistence string    `json:"persistence" flag:"persistence" help:"local masters' persistence: none|everysec|always (AOF fsync)" applies:"redis,local"` // none | everysec | always
	Bin         string    `json:"-"`                                                                                                                        // redis-server binary; default from PATH
	Log         io.Writer `json:"-"`                                                                                                                        // server output; default discarded
	// ExtraArgs are appended to every master's command line.
	ExtraArgs []string `json:"extra_args,omitempty"`
	// ClockShift runs every master under the clockshift preload library,
	// so clock-jump faults can move its wall clock (see compose/internal/clockshift).
	ClockShift bool `json:"clock_shift,omitempty"`
	// NoAuth starts the masters without a password. By default each set of
	// masters gets a generated one (requirepass, in a 0600 config file, never
	// on a command line), so no other local process can write into a
	// benchmark and every local run takes the authenticated path.
	NoAuth bool `json:"no_auth,omitempty"`
	// TLS, if set, serves TLS only (the plain port is closed), for tests.
	TLS *serverTLS `json:"tls,omitempty"`
}

// serverTLS is a local master's TLS setup: its certificate, the CA it
// trusts for clients, and whether clients must present one (mutual TLS).
type serverTLS struct {
	CertFile    string `json:"-"`
	KeyFile     string `json:"-"`
	CAFile      string `json:"-"`
	AuthClients bool   `json:"auth_clients"`
	// Client is what a client needs to reach the master (CA and, for
	// mutual TLS, a client certificate).
	Client redisconn.TLSFiles `json:"-"`
}

// RedisServer is one local redis-server master.
type RedisServer struct {
	Port     int
	Dir      string
	proc     *process
	args     []string
	clock    *clockshift.Clock
	endpoint redisconn.Endpoint
}

// Endpoint is how a client reaches and authenticates to the master.
func (s *RedisServer) Endpoint() redisconn.Endpoint { return s.endpoint }

// Clock is the master's wall-clock offset; nil unless started with
// RedisOptions.ClockShift. The offset outlives a restart, as a machine's
// clock would.
func (s *RedisServer) Clock() *clockshift.Clock { return s.clock }

// Addr is host:port on loopback.
func (s *RedisServer) Addr() string { return hostPort(s.Port) }

// Pid is the server's process id, 0 when stopped.
func (s *RedisServer) Pid() int { return s.proc.Pid() }

// Start (re)starts a stopped master on the same port and dir and waits for PING.
func (s *RedisServer) Start(ctx context.Context) error {
	if err := s.proc.start(); err != nil {
		return err
	}
	return waitTCP(ctx, s.proc, func(ctx context.Context) error { return Ping(ctx, s.endpoint) })
}

// Stop shuts the master down cleanly (SIGTERM).
func (s *RedisServer) Stop() error { return s.proc.stop(3 * time.Second) }

// Kill crashes the master (SIGKILL): with persistence none it comes back empty.
func (s *RedisServer) Kill() error { return s.proc.kill() }

// Pause freezes the master (SIGSTOP); Resume thaws it (SIGCONT).
func (s *RedisServer) Pause() error  { return s.proc.signal(syscall.SIGSTOP) }
func (s *RedisServer) Resume() error { return s.proc.signal(syscall.SIGCONT) }

// Redis is a set of independent local masters (not replicas, not a cluster).
type Redis struct {
	Servers []*RedisServer
	root    string
	owner   *os.File // holds root's owner lock (tempdir.go)
	// Password is the masters' generated password ("" with NoAuth).
	Password string
}

// errNoRedisServer is returned when redis-server is not installed.
var errNoRedisServer = errors.New("compose: redis-server not found in PATH: apt-get install redis-server (or make deps)")

// RedisArgs is the command line for one master: loopback only, no
// persistence unless asked, no protected mode.
func RedisArgs(port int, dir, persistence string) ([]string, error) {
	args := []string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--daemonize", "no", "--protected-mode", "no", "--save", "", "--loglevel", "warning",
	}
	switch persistence {
	case "", "none":
		args = append(args, "--appendonly", "no")
	case "everysec", "always":
		args = append(args, "--appendonly", "yes", "--appendfsync", persistence)
	default:
		return nil, fmt.Errorf("persistence %q: want one of none, everysec, always", persistence)
	}
	return args, nil
}

// StartRedis starts opt.Masters masters on free loopback ports, each in its
// own temp dir, and waits until each answers PING. On error, whatever was
// started is stopped again.
func StartRedis(ctx context.Context, opt RedisOptions) (_ *Redis, err error) {
	if opt.Masters < 1 {
		return nil, fmt.Errorf("masters %d: must be at least 1", opt.Masters)
	}
	bin := opt.Bin
	if bin == "" {
		if bin, err = exec.LookPath("redis-server"); err != nil {
			return nil, errNoRedisServer
		}
	}
	if _, err := RedisArgs(0, "", opt.Persistence); err != nil {
		return nil, err
	}
	lib := ""
	if opt.ClockShift {
		if lib, err = clockshift.Library(ctx); err != nil {
			return nil, err
		}
	}
	root, owner, err := ownedTempDir("lockbench-redis-")
	if err != nil {
		return nil, err
	}
	r := &Redis{root: root, owner: owner}
	defer func() {
		if err != nil {
			_ = r.Close()
		}
	}()
	if !opt.NoAuth {
		if r.Password, err = generatePassword(); err != nil {
			return nil, err
		}
	}
	for i := range opt.Masters {
		s, err := startRedisServer(ctx, bin, lib, filepath.Join(root, strconv.Itoa(i)), r.Password, opt)
		if err != nil {
			return nil, err
		}
		r.Servers = append(r.Servers, s)
	}
	return r, nil
}

func startRedisServer(ctx context.Context, bin, clockLib, dir, password string, opt RedisOptions) (*RedisServer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	conf, err := writeSecretConf(dir, password, opt.TLS)
	if err != nil {
		return nil, err
	}
	var clientTLS *tls.Config
	if opt.TLS != nil {
		if clientTLS, err = opt.TLS.Client.Config(); err != nil {
			return nil, err
		}
	}
	var clock *clockshift.Clock
	var env []string
	if clockLib != "" {
		var err error
		if clock, err = clockshift.New(clockLib, filepath.Join(dir, "clock-offset")); err != nil {
			return nil, err
		}
		env = clock.Env()
	}
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	var lastErr error
	for range 5 { // a free port can be taken before redis binds it: try another
		port, err := procs.FreePort()
		if err != nil {
			return nil, err
		}
		args, _ := RedisArgs(port, dir, opt.Persistence)
		args = append(append([]string{bin, conf}, args...), opt.ExtraArgs...)
		if opt.TLS != nil { // the TLS port replaces the plain one
			args = append(args, "--port", "0", "--tls-port", strconv.Itoa(port))
		}
		s := &RedisServer{Port: port, Dir: dir, args: args, clock: clock,
			endpoint: redisconn.Endpoint{Addr: hostPort(port), Password: password, TLS: clientTLS},
			proc:     &process{name: "redis-server :" + strconv.Itoa(port), argv: args, env: env, log: log}}
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		lastErr = s.Start(sctx)
		cancel()
		if lastErr == nil {
			return s, nil
		}
		_ = s.Kill()
		if ctx.Err() != nil {
			return nil, lastErr
		}
	}
	return nil, lastErr
}

// Addrs lists the masters' addresses in order.
func (r *Redis) Addrs() []string {
	out := make([]string, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = s.Addr()
	}
	return out
}

// Close stops every master and removes their temp dirs.
func (r *Redis) Close() error {
	var errs []error
	for _, s := range r.Servers {
		errs = append(errs, s.Stop())
	}
	errs = append(errs, removeAll(r.root))
	if r.owner != nil {
		r.owner.Close()
	}
	return errors.Join(errs...)
}

// Pause freezes master i (SIGSTOP), as a stalled machine would.
func (r *Redis) Pause(i int) error { return r.Servers[i].Pause() }

// Resume thaws master i (SIGCONT).
func (r *Redis) Resume(i int) error { return r.Servers[i].Resume() }

// Endpoints lists the masters' endpoints (with the password) in order.
func (r *Redis) Endpoints() []redisconn.Endpoint {
	out := make([]redisconn.Endpoint, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = s.endpoint
	}
	return out
}

package compose

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose/clockshift"
)

// Persistence modes of the local masters.
var Persistences = []string{"none", "everysec", "always"}

// RedisOptions describe local masters to start.
type RedisOptions struct {
	Masters     int       `json:"masters"`
	Persistence string    `json:"persistence"` // none | everysec | always
	Bin         string    `json:"-"`           // redis-server binary; default from PATH
	Log         io.Writer `json:"-"`           // server output; default discarded
	// ExtraArgs are appended to every master's command line.
	ExtraArgs []string `json:"extra_args,omitempty"`
	// ClockShift runs every master under the clockshift preload library,
	// so clock-jump faults can move its wall clock (see compose/clockshift).
	ClockShift bool `json:"clock_shift,omitempty"`
}

// RedisServer is one local redis-server master.
type RedisServer struct {
	Port  int
	Dir   string
	proc  *process
	args  []string
	clock *clockshift.Clock
}

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
	return waitTCP(ctx, s.proc, func(ctx context.Context) error { return Ping(ctx, s.Addr()) })
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
}

// ErrNoRedisServer is returned when redis-server is not installed.
var ErrNoRedisServer = errors.New("compose: redis-server not found in PATH: run `make deps` (or apt-get install redis-server)")

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
			return nil, ErrNoRedisServer
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
	for i := range opt.Masters {
		s, err := startRedisServer(ctx, bin, lib, filepath.Join(root, strconv.Itoa(i)), opt)
		if err != nil {
			return nil, err
		}
		r.Servers = append(r.Servers, s)
	}
	return r, nil
}

func startRedisServer(ctx context.Context, bin, clockLib, dir string, opt RedisOptions) (*RedisServer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
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
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		args, _ := RedisArgs(port, dir, opt.Persistence)
		args = append(append([]string{bin}, args...), opt.ExtraArgs...)
		s := &RedisServer{Port: port, Dir: dir, args: args, clock: clock,
			proc: &process{name: "redis-server :" + strconv.Itoa(port), argv: args, env: env, log: log}}
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

// Ping checks that a Redis server answers at addr.
func Ping(ctx context.Context, addr string) error {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true, PoolSize: 1})
	defer c.Close()
	return c.Ping(ctx).Err()
}

// RedisVersion reads redis_version from INFO server.
func RedisVersion(ctx context.Context, addr string) (string, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true, PoolSize: 1})
	defer c.Close()
	info, err := c.Info(ctx, "server").Result()
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			return v, nil
		}
	}
	return "", errors.New("compose: no redis_version in INFO")
}

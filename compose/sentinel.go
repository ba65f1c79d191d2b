package compose

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/procs"
)

// SentinelMaster is the name the Sentinel monitors the master under.
const SentinelMaster = "lockbench"

// errNoRedisSentinel is returned when redis-sentinel is not installed.
var errNoRedisSentinel = errors.New("compose: redis-sentinel not found in PATH: apt-get install redis-sentinel (or scripts/deps.sh sentinel)")

// Sentinel is the single-instance Redis topology the Redlock post argues
// against: one master, one replica, and one redis-sentinel that promotes the
// replica when the master dies. The replica replicates through a fault proxy,
// so a run can hold replication back (BlockReplication) and make a grant
// that never reaches the replica deterministic, not a race.
type Sentinel struct {
	Master, Replica *RedisServer
	proc            *process // redis-sentinel
	port            int
	proxy           *Proxies // replica → master replication link
	root            string
	owner           *os.File // holds root's owner lock (tempdir.go)
	// Password is generated per topology, as for the other local masters:
	// master and replica require it (requirepass, masterauth), and so does
	// the Sentinel, which uses it on them (sentinel auth-pass). It lives in
	// 0600 config files, never on a command line.
	Password string
}

// SentinelOptions describe the topology to start.
type SentinelOptions struct {
	// DownAfter is the Sentinel's down-after-milliseconds: how long the
	// master may not answer before it is taken for down.
	DownAfter time.Duration `json:"down_after"`
	// FailoverTimeout is the Sentinel's failover-timeout; 0: 10 s. Besides
	// bounding a failover, it is how long after the Sentinel starts it
	// repoints the replica from the replication proxy at the master's own
	// address (BlockReplication needs the proxy).
	FailoverTimeout time.Duration `json:"failover_timeout,omitempty"`
	Log             io.Writer     `json:"-"`
}

// defaultFailoverTimeout is the Sentinel's failover-timeout unless told.
const defaultFailoverTimeout = 10 * time.Second

// DefaultSentinelOptions: failover within a couple of seconds.
func DefaultSentinelOptions() SentinelOptions {
	return SentinelOptions{DownAfter: 500 * time.Millisecond}
}

// StartSentinel starts master, replica (replicating through a proxy) and one
// Sentinel with quorum 1, and waits until the Sentinel knows the replica. On
// error whatever was started is stopped again.
func StartSentinel(ctx context.Context, opt SentinelOptions) (_ *Sentinel, err error) {
	if opt.DownAfter <= 0 {
		opt.DownAfter = DefaultSentinelOptions().DownAfter
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errNoRedisServer
	}
	sbin, err := exec.LookPath("redis-sentinel")
	if err != nil {
		return nil, errNoRedisSentinel
	}
	root, owner, err := ownedTempDir("lockbench-sentinel-")
	if err != nil {
		return nil, err
	}
	s := &Sentinel{root: root, owner: owner}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	if s.Password, err = generatePassword(); err != nil {
		return nil, err
	}
	ropt := RedisOptions{Persistence: "none", Log: opt.Log}
	if s.Master, err = startRedisServer(ctx, bin, "", filepath.Join(root, "master"), s.Password, ropt); err != nil {
		return nil, err
	}
	if s.proxy, err = StartProxies([]string{s.Master.Addr()}); err != nil {
		return nil, err
	}
	host, port, _ := strings.Cut(s.proxy.Addrs()[0], ":")
	ropt.ExtraArgs = []string{"--replicaof", host, port}
	if s.Replica, err = startRedisServer(ctx, bin, "", filepath.Join(root, "replica"), s.Password, ropt); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := waitInfo(wctx, s.Replica.Endpoint(), "replication", "master_link_status:up"); err != nil {
		return nil, fmt.Errorf("compose: replica never linked to its master: %w", err)
	}
	if err := s.startSentinel(wctx, sbin, opt); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Sentinel) startSentinel(ctx context.Context, bin string, opt SentinelOptions) error {
	var lastErr error
	for range 5 { // a free port can be taken before the sentinel binds it
		port, err := procs.FreePort()
		if err != nil {
			return err
		}
		conf := filepath.Join(s.root, "sentinel.conf") // the Sentinel rewrites it
		body := fmt.Sprintf("port %d\nbind 127.0.0.1\nprotected-mode no\ndaemonize no\ndir %s\nloglevel warning\nrequirepass %s\n"+
			"sentinel monitor %s 127.0.0.1 %d 1\nsentinel auth-pass %s %s\nsentinel down-after-milliseconds %s %d\nsentinel failover-timeout %s %d\n",
			port, s.root, s.Password, SentinelMaster, s.Master.Port, SentinelMaster, s.Password, SentinelMaster, opt.DownAfter.Milliseconds(),
			SentinelMaster, cmp.Or(opt.FailoverTimeout, defaultFailoverTimeout).Milliseconds())
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			return fmt.Errorf("compose: %w", err)
		}
		log := opt.Log
		if log == nil {
			log = io.Discard
		}
		s.port = port
		s.proc = &process{name: "redis-sentinel :" + strconv.Itoa(port), argv: []string{bin, conf}, log: log}
		if err := s.proc.start(); err != nil {
			return err
		}
		lastErr = waitTCP(ctx, s.proc, s.knowsReplica)
		if lastErr == nil {
			return nil
		}
		_ = s.proc.kill()
		if ctx.Err() != nil {
			break
		}
	}
	return lastErr
}

// knowsReplica succeeds once the Sentinel lists the replica, not down.
func (s *Sentinel) knowsReplica(ctx context.Context) error {
	c := redis.NewSentinelClient(&redis.Options{Addr: s.Addr(), Password: s.Password, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true, PoolSize: 1})
	defer c.Close()
	reps, err := c.Replicas(ctx, SentinelMaster).Result()
	if err != nil {
		return err
	}
	for _, r := range reps {
		if r["port"] == strconv.Itoa(s.Replica.Port) && !strings.Contains(r["flags"], "down") {
			return nil
		}
	}
	return errors.New("sentinel does not know the replica yet")
}

// Addr is the Sentinel's host:port.
func (s *Sentinel) Addr() string { return hostPort(s.port) }

// Addrs lists the Sentinels (one).
func (s *Sentinel) Addrs() []string { return []string{s.Addr()} }

// Pid is the Sentinel's process id.
func (s *Sentinel) Pid() int { return s.proc.Pid() }

// replicationToxics drop everything on the replication link, both ways.
var replicationToxics = []Toxic{
	{Name: "repl-down", Type: "timeout", Stream: "downstream", Attributes: map[string]any{"timeout": 0}},
	{Name: "repl-up", Type: "timeout", Stream: "upstream", Attributes: map[string]any{"timeout": 0}},
}

// BlockReplication drops the replication stream: writes to the master no
// longer reach the replica (and the replica acknowledges nothing), while
// both stay up and connected as far as they can tell. It refuses when the
// replica no longer replicates through the proxy: the Sentinel repoints a
// replica at the master's own address about failover-timeout (10 s) after
// it starts, and from then on blocking the proxy would block nothing.
func (s *Sentinel) BlockReplication(ctx context.Context) error {
	_, port, _ := strings.Cut(s.proxy.Addrs()[0], ":")
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := waitInfo(ctx, s.Replica.Endpoint(), "replication", "master_port:"+port+"\r\n"); err != nil {
		return fmt.Errorf("block replication: the replica does not replicate through the proxy (the Sentinel repointed it?): %w", err)
	}
	for _, t := range replicationToxics {
		if err := s.proxy.AddToxic(0, t); err != nil {
			return err
		}
	}
	return nil
}

// HealReplication removes what BlockReplication added.
func (s *Sentinel) HealReplication() error {
	var errs []error
	for _, t := range replicationToxics {
		errs = append(errs, s.proxy.RemoveToxic(0, t.Name))
	}
	return errors.Join(errs...)
}

// CurrentMaster asks the Sentinel which address it holds for the master.
func (s *Sentinel) CurrentMaster(ctx context.Context) (string, error) {
	c := redis.NewSentinelClient(&redis.Options{Addr: s.Addr(), Password: s.Password, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true, PoolSize: 1})
	defer c.Close()
	a, err := c.GetMasterAddrByName(ctx, SentinelMaster).Result()
	if err != nil {
		return "", err
	}
	return strings.Join(a, ":"), nil
}

// Failover asks the Sentinel to fail its master over now, without waiting
// for agreement, as an operator does after a failover the Sentinel gave
// up (it would try again only twice its failover-timeout later). The error
// is the Sentinel's refusal: INPROG while one is under way, NOGOODSLAVE
// while it sees no replica it may promote.
func (s *Sentinel) Failover(ctx context.Context) error {
	c := redis.NewSentinelClient(&redis.Options{Addr: s.Addr(), Password: s.Password, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true, PoolSize: 1})
	defer c.Close()
	return c.Failover(ctx, SentinelMaster).Err()
}

// Close stops the Sentinel, the proxy, replica and master, and removes the
// temp dir.
func (s *Sentinel) Close() error {
	var errs []error
	if s.proc != nil {
		errs = append(errs, s.proc.stop(3*time.Second))
	}
	if s.proxy != nil {
		errs = append(errs, s.proxy.Close())
	}
	for _, r := range []*RedisServer{s.Replica, s.Master} {
		if r != nil {
			errs = append(errs, r.Stop())
		}
	}
	errs = append(errs, removeAll(s.root))
	if s.owner != nil {
		s.owner.Close()
	}
	return errors.Join(errs...)
}

// waitInfo polls INFO section on e until it contains want.
func waitInfo(ctx context.Context, e redisconn.Endpoint, section, want string) error {
	addr := e.Addr
	c := redis.NewClient(&redis.Options{Addr: addr, Password: e.Password, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true, PoolSize: 1})
	defer c.Close()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		info, err := c.Info(ctx, section).Result()
		if err == nil && strings.Contains(info, want) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: no %q in INFO %s: %w", addr, want, section, errors.Join(ctx.Err(), err))
		case <-tick.C:
		}
	}
}

// Servers are the master (1) and the replica (2), the servers --fault
// masters=… names for the single backend.
func (s *Sentinel) Servers() []*RedisServer { return []*RedisServer{s.Master, s.Replica} }

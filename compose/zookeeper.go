package compose

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/internal/procs"
)

// zooKeeperJar is where Debian's zookeeper package puts the server.
var zooKeeperJar = "/usr/share/java/zookeeper.jar"

// zooKeeperExtraJars join ZooKeeperJar on the class path: the server's
// TLS (Netty) needs Netty's codec, which the jar's own class path (Debian's
// manifest) leaves out.
var zooKeeperExtraJars = []string{"/usr/share/java/netty-codec.jar"}

// errNoZooKeeper is returned when the ZooKeeper server or a JVM is missing.
var errNoZooKeeper = errors.New("compose: ZooKeeper not installed (need java and " + zooKeeperJar + "): apt-get install zookeeper (or scripts/deps.sh zookeeper)")

// ZooKeeperOptions describe the local ZooKeeper to start.
type ZooKeeperOptions struct {
	// TickTime is ZooKeeper's time unit; sessions may be as short as 2 ticks.
	TickTime time.Duration `json:"tick_time"`
	Log      io.Writer     `json:"-"`
}

// ZooKeeper is one standalone ZooKeeper server (a JVM) with its own data
// dir; transaction log fsync stays on (ZooKeeper's default).
//
// The server listens only for TLS clients that show a certificate of a CA
// made for the run (TLS is the client config that does), refuses sessions
// that have not authenticated, and the whole tree belongs to the digest
// user ZooKeeperUser with a generated password (zookeeper_auth.go): Digest
// is what a client authenticates with.
type ZooKeeper struct {
	Port     int
	proc     *process
	root     string
	owner    *os.File // holds root's owner lock (tempdir.go)
	password string
	tls      *tls.Config
	files    certs.Files
}

// Digest is the digest credentials, user:password, of the server's data.
func (z *ZooKeeper) Digest() string { return zooKeeperUser + ":" + z.password }

// StartZooKeeper starts a standalone server on a free loopback port and
// waits until it serves an authenticated session. On error whatever was
// started is stopped.
func StartZooKeeper(ctx context.Context, opt ZooKeeperOptions) (_ *ZooKeeper, err error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errNoZooKeeper
	}
	for _, jar := range append([]string{zooKeeperJar}, zooKeeperExtraJars...) {
		if _, err := os.Stat(jar); err != nil {
			return nil, errNoZooKeeper
		}
	}
	if opt.TickTime <= 0 {
		opt.TickTime = 200 * time.Millisecond
	}
	root, owner, err := ownedTempDir("lockbench-zookeeper-")
	if err != nil {
		return nil, err
	}
	z := &ZooKeeper{root: root, owner: owner}
	if z.password, err = generatePassword(); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = z.Close()
		}
	}()
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	if z.tls, z.files, err = zooKeeperTLS(root); err != nil {
		return nil, err
	}
	var lastErr error
	for range 3 { // a free port can be taken before the server binds it
		if z.Port, err = procs.FreePort(); err != nil {
			return nil, err
		}
		cfg := filepath.Join(root, "zoo.cfg")
		tick := opt.TickTime.Milliseconds()
		body := fmt.Sprintf("tickTime=%d\ndataDir=%s\n"+
			"minSessionTimeout=%d\nmaxSessionTimeout=60000\nmaxClientCnxns=0\n"+
			zooKeeperAuthConf+zooKeeperTLSConf(root, z.files, z.Port), tick, filepath.Join(root, "data"), 2*tick)
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			return nil, fmt.Errorf("compose: %w", err)
		}
		argv := []string{java, "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-cp", strings.Join(append([]string{zooKeeperJar}, zooKeeperExtraJars...), ":"),
			"-Dzookeeper.log.dir=" + root, "org.apache.zookeeper.server.ZooKeeperServerMain", cfg}
		z.proc = &process{name: "zookeeper :" + strconv.Itoa(z.Port), argv: argv, log: log}
		if err := z.proc.start(); err != nil {
			return nil, err
		}
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second) // a JVM on a loaded machine
		lastErr = waitTCP(wctx, z.proc, z.handshake)
		if lastErr == nil {
			lastErr = protectZooKeeper(wctx, z.Addr(), zooKeeperUser, z.password, z.tls)
		}
		cancel()
		if lastErr == nil {
			return z, nil
		}
		_ = z.proc.kill()
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// Addr is the server's client host:port.
func (z *ZooKeeper) Addr() string { return hostPort(z.Port) }

// Addrs lists the servers (one).
func (z *ZooKeeper) Addrs() []string { return []string{z.Addr()} }

// Pid is the server's process id, 0 when stopped.
func (z *ZooKeeper) Pid() int { return z.proc.Pid() }

// Kill crashes the server (SIGKILL); its data dir stays for Start.
func (z *ZooKeeper) Kill() error { return z.proc.kill() }

// Start restarts a killed server on the same port and data dir and waits
// until it serves an authenticated session. Sessions live in its transaction log: a client
// that reconnects within its session timeout keeps its session (and its
// ephemeral znodes, the locks it held).
func (z *ZooKeeper) Start(ctx context.Context) error {
	if err := z.proc.restart(ctx, z.handshake); err != nil {
		return err
	}
	return z.Ping(ctx)
}

// Pause freezes the server (SIGSTOP); Resume thaws it (SIGCONT).
func (z *ZooKeeper) Pause() error  { return z.proc.signal(syscall.SIGSTOP) }
func (z *ZooKeeper) Resume() error { return z.proc.signal(syscall.SIGCONT) }

// Close stops the server and removes its data dir.
func (z *ZooKeeper) Close() error {
	var errs []error
	if z.proc != nil {
		errs = append(errs, z.proc.stop(5*time.Second))
	}
	errs = append(errs, removeAll(z.root))
	if z.owner != nil {
		z.owner.Close()
	}
	return errors.Join(errs...)
}

// zooKeeperPing sends the `ruok` four-letter word and expects `imok`: how
// lockbench checks an external server it is given (a local one answers no
// four-letter word: ZooKeeper.Ping).
func zooKeeperPing(ctx context.Context, addr string) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	if _, err := c.Write([]byte("ruok")); err != nil {
		return err
	}
	b, err := io.ReadAll(c)
	if len(b) == 0 && err != nil {
		return err
	}
	if string(b) != "imok" {
		return fmt.Errorf("zookeeper %s: ruok answered %q", addr, b)
	}
	return nil
}

// upZooKeeper dials spec.ZooKeeperAddrs or starts a server; Up calls it.
func (t *Topology) upZooKeeper(ctx context.Context, spec Spec) error {
	if len(spec.ZooKeeperAddrs) > 0 {
		for _, a := range spec.ZooKeeperAddrs {
			pctx, cancel := context.WithTimeout(ctx, pingTimeout)
			err := zooKeeperPing(pctx, a)
			cancel()
			if err != nil {
				return unreachable(ctx, "zookeeper_addrs", a, pingTimeout, err)
			}
		}
		t.ZooKeeperAddrs = spec.ZooKeeperAddrs
		return nil
	}
	z, err := StartZooKeeper(ctx, spec.ZooKeeper)
	if err != nil {
		return err
	}
	t.ZooKeeper = z
	t.closers = append(t.closers, z)
	t.ZooKeeperAddrs, t.ZooKeeperDigest, t.ZooKeeperTLS = z.Addrs(), z.Digest(), z.TLS()
	return nil
}

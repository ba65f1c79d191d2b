package compose

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/lockbench/lockbench/compose/internal/etcdmember"
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/internal/procs"
	"go.uber.org/zap"
)

// EtcdOptions describe a local etcd cluster to start.
type EtcdOptions struct {
	Members int `json:"members" flag:"etcd-members" help:"local etcd members to start, each its own process: 1|3|5"` // 1, 3 or 5
	// Bin is the program re-executed as each member; default
	// os.Executable(). It must call etcdmember.ServeIfChild first in main
	// (lockbench does) or TestMain (the tests that start etcd do).
	Bin string    `json:"-"`
	Log io.Writer `json:"-"` // members' output; default discarded
	// Secure is what a local cluster always does: it serves clients over
	// mutual TLS (a CA made for the run) with auth on (user root, a
	// generated password). The field stays so that configs and command
	// lines that ask for it (--etcd-secure) keep their meaning.
	Secure bool `json:"secure,omitempty" flag:"etcd-secure" help:"local etcd: serve clients over mutual TLS (a CA made for the run); always on, with auth (root, a generated password)"`
}

// etcdMemberCounts are the cluster sizes lockbench starts.
var etcdMemberCounts = []int{1, 3, 5}

// ValidEtcdMembers reports whether n is a supported cluster size.
func ValidEtcdMembers(n int) bool {
	for _, m := range etcdMemberCounts {
		if m == n {
			return true
		}
	}
	return false
}

// etcdMember is one local etcd member process.
type etcdMember struct {
	Name       string
	ClientPort int
	PeerPort   int
	Dir        string
	proc       *process
	tail       *tailBuffer     // the member's last output, for start-up errors
	access     etcdconn.Access // how a restart checks it serves
}

// Addr is the member's client host:port on loopback.
func (m *etcdMember) Addr() string { return hostPort(m.ClientPort) }

// Pid is the member's process id, 0 when stopped.
func (m *etcdMember) Pid() int { return m.proc.Pid() }

// Stop shuts the member down cleanly (SIGTERM, SIGKILL after a grace).
func (m *etcdMember) Stop() error { return m.proc.stop(5 * time.Second) }

// Kill crashes the member (SIGKILL); its data dir stays for Start.
func (m *etcdMember) Kill() error { return m.proc.kill() }

// Start restarts a killed member with its data dir and waits until it
// serves a linearizable read, which needs a quorum: members restarted
// together must be started concurrently.
func (m *etcdMember) Start(ctx context.Context) error {
	return m.proc.restart(ctx, func(ctx context.Context) error { return etcdPingWith(ctx, m.Addr(), m.access) })
}

// Pause freezes the member (SIGSTOP); Resume thaws it (SIGCONT).
func (m *etcdMember) Pause() error  { return m.proc.signal(syscall.SIGSTOP) }
func (m *etcdMember) Resume() error { return m.proc.signal(syscall.SIGCONT) }

// Etcd is a local etcd cluster, one OS process per member.
type Etcd struct {
	Members []*etcdMember
	root    string
	owner   *os.File // holds root's owner lock (tempdir.go)
	// Access is how clients reach the members: root's password, and TLS
	// when Secure.
	Access etcdconn.Access
}

// StartEtcd starts opt.Members members on free loopback ports, each with its
// own temp data dir and fsync on, and waits until the cluster serves a
// linearizable read through every member. On error whatever was started is
// stopped again.
func StartEtcd(ctx context.Context, opt EtcdOptions) (*Etcd, error) {
	if !ValidEtcdMembers(opt.Members) {
		return nil, fmt.Errorf("etcd members %d: want 1, 3 or 5", opt.Members)
	}
	bin := opt.Bin
	if bin == "" {
		var err error
		if bin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("compose: executable for etcd members: %w", err)
		}
	}
	var lastErr error
	for range 3 { // a free port can be taken before a member binds it: try again
		e, err := startEtcdOnce(ctx, bin, opt)
		if err == nil {
			return e, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

func startEtcdOnce(ctx context.Context, bin string, opt EtcdOptions) (_ *Etcd, err error) {
	root, owner, err := ownedTempDir("lockbench-etcd-")
	if err != nil {
		return nil, err
	}
	e := &Etcd{root: root, owner: owner}
	defer func() {
		if err != nil {
			_ = e.Close()
		}
	}()
	// Members talk to each other over mutual TLS with certificates of a
	// CA made for the run (its key never leaves memory): the peer port
	// takes nothing from a process without one.
	files, err := certs.Generate(root)
	if err != nil {
		return nil, err
	}
	// Clients too: every member serves its client URL (the KV API, and
	// /health, /version and /metrics beside it) only to a client that
	// shows a certificate of that CA, so another local user cannot even
	// complete a handshake; lockbench's own clients get the client
	// certificate with root's password (Access).
	tls := etcdmember.Config{CertFile: files.ServerCert, KeyFile: files.ServerKey, CAFile: files.CA,
		PeerCertFile: files.ServerCert, PeerKeyFile: files.ServerKey, PeerCAFile: files.CA}
	e.Access = etcdconn.Access{TLS: true, CACert: files.CA, Cert: files.ClientCert, Key: files.ClientKey}
	peers := make([]string, opt.Members)
	for i := range opt.Members {
		m := &etcdMember{Name: "m" + strconv.Itoa(i), Dir: filepath.Join(root, strconv.Itoa(i))}
		if m.ClientPort, err = procs.FreePort(); err != nil {
			return nil, err
		}
		if m.PeerPort, err = procs.FreePort(); err != nil {
			return nil, err
		}
		peers[i] = m.Name + "=" + url(m.PeerPort)
		e.Members = append(e.Members, m)
	}
	cluster := strings.Join(peers, ",")
	// Start every member before waiting on any: a member of a 3- or
	// 5-member cluster cannot serve until a quorum of its peers is up.
	for _, m := range e.Members {
		// The member is this program re-executed with its config in the
		// environment (etcdmember.ServeIfChild), not a separate binary.
		mc := etcdmember.Config{Name: m.Name, Dir: m.Dir,
			ClientURL: "https://" + hostPort(m.ClientPort), PeerURL: url(m.PeerPort),
			Cluster: cluster, Token: filepath.Base(root),
			CertFile: tls.CertFile, KeyFile: tls.KeyFile, CAFile: tls.CAFile,
			PeerCertFile: tls.PeerCertFile, PeerKeyFile: tls.PeerKeyFile, PeerCAFile: tls.PeerCAFile}
		env, err := mc.Env()
		if err != nil {
			return nil, err
		}
		m.tail = &tailBuffer{}
		var log io.Writer = m.tail
		if opt.Log != nil {
			log = io.MultiWriter(opt.Log, m.tail)
		}
		m.proc = &process{name: "etcd " + m.Name + " :" + strconv.Itoa(m.ClientPort), argv: mc.Argv(bin), env: []string{env}, log: log}
		if err := m.proc.start(); err != nil {
			return nil, err
		}
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, m := range e.Members {
		if err := waitTCP(wctx, m.proc, func(ctx context.Context) error { return etcdPingWith(ctx, m.Addr(), e.Access) }); err != nil {
			if out := m.tail.String(); out != "" {
				return nil, fmt.Errorf("%w\n%s output:\n%s", err, m.Name, out)
			}
			return nil, err
		}
	}
	// Auth always: a member listens on loopback, where every local user
	// could otherwise read and write the cluster.
	if e.Access, err = enableEtcdAuth(wctx, e.Addrs(), e.Access); err != nil {
		return nil, err
	}
	for _, m := range e.Members {
		m.access = e.Access
	}
	return e, nil
}

// url is a member's peer URL.
func url(port int) string { return "https://" + hostPort(port) }

// Addrs lists the members' client addresses in order.
func (e *Etcd) Addrs() []string {
	out := make([]string, len(e.Members))
	for i, m := range e.Members {
		out[i] = m.Addr()
	}
	return out
}

// Close ends every member and removes their data dirs.
func (e *Etcd) Close() error {
	// Killed, not stopped: their data dirs go next, and a graceful stop
	// has each member wait for its leaving peers in turn (a leadership
	// transfer to members that are stopping too): a start-up interrupted
	// by Ctrl-C took 3 s to end with three members, 5 s at once.
	var errs []error
	for _, m := range e.Members {
		if m.proc != nil {
			errs = append(errs, m.Kill())
		}
	}
	errs = append(errs, removeAll(e.root))
	if e.owner != nil {
		e.owner.Close()
	}
	return errors.Join(errs...)
}

// etcdPing checks that the etcd member at addr serves a linearizable read,
// which needs a leader and so a quorum.
func etcdPing(ctx context.Context, addr string) error {
	return etcdPingWith(ctx, addr, etcdconn.Access{})
}

// etcdClient dials endpoints with a's TLS and user, for as long as ctx
// allows: the dial includes the TLS handshake and, with a user, the
// password check (bcrypt on the server), which can take over a second on
// a busy machine.
func etcdClient(ctx context.Context, endpoints []string, a etcdconn.Access) (*clientv3.Client, error) {
	dial := etcdDialTimeout
	if dl, ok := ctx.Deadline(); ok {
		dial = max(time.Until(dl), time.Millisecond)
	}
	cfg := clientv3.Config{Endpoints: endpoints, DialTimeout: dial, Context: ctx, Logger: nopLogger()}
	if err := a.Apply(&cfg); err != nil {
		return nil, err
	}
	return clientv3.New(cfg)
}

// etcdPingWith is EtcdPing with TLS and credentials.
func etcdPingWith(ctx context.Context, addr string, a etcdconn.Access) error {
	c, err := etcdClient(ctx, []string{addr}, a)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Get(ctx, "lockbench/ping")
	return err
}

// EtcdVersion asks a member for its server version.
func EtcdVersion(ctx context.Context, addr string, a etcdconn.Access) (string, error) {
	c, err := etcdClient(ctx, []string{addr}, a)
	if err != nil {
		return "", err
	}
	defer c.Close()
	st, err := c.Status(ctx, addr)
	if err != nil {
		return "", err
	}
	return st.Version, nil
}

// etcdDialTimeout bounds a dial whose context has no deadline.
const etcdDialTimeout = 10 * time.Second

// nopLogger keeps the etcd client's retry chatter off the progress line.
func nopLogger() *zap.Logger { return zap.NewNop() }

// upEtcd dials spec.EtcdAddrs or starts spec.Etcd; Up calls it.
func (t *Topology) upEtcd(ctx context.Context, spec Spec) error {
	if len(spec.EtcdAddrs) > 0 {
		for _, a := range spec.EtcdAddrs {
			pctx, cancel := context.WithTimeout(ctx, pingTimeout)
			err := etcdPingWith(pctx, a, spec.EtcdAccess)
			cancel()
			if err != nil {
				return unreachable(ctx, "etcd_addrs", a, pingTimeout, err)
			}
		}
		t.EtcdAddrs, t.EtcdAccess = spec.EtcdAddrs, spec.EtcdAccess
		return nil
	}
	e, err := StartEtcd(ctx, spec.Etcd)
	if err != nil {
		return err
	}
	t.Etcd = e
	t.closers = append(t.closers, e)
	t.EtcdAddrs, t.EtcdAccess = e.Addrs(), e.Access
	return nil
}

// tailBuffer keeps the last few KB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

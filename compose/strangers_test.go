package compose_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/redact"
)

// strangerEnv, set in the probe's environment, holds what it probes.
const strangerEnv = "LOCKBENCH_TEST_STRANGER"

// strangerSpec is the servers a stranger probes, and the credentials of
// the control that proves the probe could reach them.
type strangerSpec struct {
	Redis, Sentinel []string
	RedisPassword   string
	SentinelPass    string
	Postgres        string // host:port
	PostgresSocket  string // the socket's directory
	PostgresURL     string // the lock role's, for the control
	ZooKeeper       string
	ZooKeeperDigest string
	ZooKeeperTLS    pemFiles
	Etcd            []string
	EtcdPeers       []string
	EtcdUser        string
	EtcdPassword    string
	EtcdTLS         pemFiles
}

// pemFiles carry a server's CA and client certificate to the probe, which
// may not read the server's files.
type pemFiles struct{ CA, Cert, Key []byte }

func readPEM(t *testing.T, f certs.Files) pemFiles {
	t.Helper()
	var p pemFiles
	for _, r := range []struct {
		path string
		to   *[]byte
	}{{f.CA, &p.CA}, {f.ClientCert, &p.Cert}, {f.ClientKey, &p.Key}} {
		b, err := os.ReadFile(r.path)
		if err != nil {
			t.Fatal(err)
		}
		*r.to = b
	}
	return p
}

// config is the client TLS config with the certificate.
func (p pemFiles) config() (*tls.Config, error) {
	cert, err := tls.X509KeyPair(p.Cert, p.Key)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(p.CA)
	return &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// TestSelfStartedServersRefuseStrangers: another local user (nobody,
// through syscall.Credential) gets no command through to any server
// lockbench starts — Redis, Sentinel, PostgreSQL (TCP and unix socket, as
// the superuser and as the lock's role), ZooKeeper (every four-letter
// word, plain and over TLS; a session without credentials, and over TLS
// with made-up digest ones), etcd (its API, /health, /version and
// /metrics, plain and over TLS; its peer port) — while the same probe with
// the servers' credentials gets through (the refusals are
// authentication, not a network the stranger cannot use). No server's
// command line shows a password meanwhile.
func TestSelfStartedServersRefuseStrangers(t *testing.T) {
	testenv.Servers(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a probe as another user (syscall.Credential)")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody to probe as: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := compose.StartSentinel(ctx, compose.SentinelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := compose.StartPostgres(ctx, compose.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	z, err := compose.StartZooKeeper(ctx, compose.ZooKeeperOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	spec := strangerSpec{Redis: r.Addrs(), RedisPassword: r.Password,
		Sentinel: append(s.Addrs(), s.Master.Addr(), s.Replica.Addr()), SentinelPass: s.Password,
		Postgres: p.Addr(), PostgresSocket: p.SocketDir(), PostgresURL: p.URL(),
		ZooKeeper: z.Addr(), ZooKeeperDigest: z.Digest(), ZooKeeperTLS: readPEM(t, z.TLSFiles()),
		Etcd: e.Addrs(), EtcdUser: e.Access.Username, EtcdPassword: e.Access.Password,
		EtcdTLS: readPEM(t, certs.Files{CA: e.Access.CACert, ClientCert: e.Access.Cert, ClientKey: e.Access.Key})}
	for _, m := range e.Members {
		spec.EtcdPeers = append(spec.EtcdPeers, fmt.Sprintf("127.0.0.1:%d", m.PeerPort))
	}
	for _, c := range cmdlines(t) {
		if redact.Known(c) != c {
			t.Errorf("a command line shows a server's password: %s", c)
		}
	}
	out := runAsStranger(t, nobody, spec)
	t.Logf("probe as %s:\n%s", nobody.Username, out)
	refused, controls := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "REFUSED "):
			refused++
			if !authRefusal.MatchString(line) {
				t.Errorf("refused for another reason than credentials: %s", line)
			}
		case strings.HasPrefix(line, "CONTROL "):
			controls++
		case strings.HasPrefix(line, "ACCEPTED "), strings.HasPrefix(line, "CONTROL-FAILED "):
			t.Error(line)
		}
	}
	want := 2*len(spec.Redis) + 2*len(spec.Sentinel) + 3 + len(zkWords) + 2 + 2 + (4+2*len(etcdHTTP))*len(spec.Etcd) + len(spec.EtcdPeers)
	if refused != want || controls != 7 {
		t.Errorf("%d refusals and %d controls, want %d and 7:\n%s", refused, controls, want, out)
	}
}

// authRefusal is each server's way of saying "authenticate first":
// Redis and Sentinel, PostgreSQL (and the socket's directory). ZooKeeper
// and etcd serve TLS alone and ask for a certificate of the run's CA (on
// etcd's peer port too): a plain connection gets no answer (ZooKeeper
// waits for a handshake, etcd closes it), a TLS one without a certificate
// "certificate required" (Go) or "bad certificate" (Java).
var authRefusal = regexp.MustCompile(`NOAUTH|password authentication failed|permission denied|certificate required|bad certificate|closed without an answer|waits for a TLS handshake`)

// zkWords are the four-letter words a stranger tries (ZooKeeper answers
// srvr whatever its whitelist says).
var zkWords = []string{"ruok", "srvr", "stat", "mntr", "conf", "envi", "cons", "dump", "wchs", "isro"}

// etcdHTTP are the HTTP endpoints beside etcd's gRPC API.
var etcdHTTP = []string{"/health", "/version", "/metrics"}

// cmdlines are every process's command line.
func cmdlines(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d command lines readable", len(out))
	}
	return out
}

// runAsStranger runs TestStranger in a copy of this test binary that u
// may execute, as u, and returns its output.
func runAsStranger(t *testing.T, u *user.User, spec strangerSpec) []byte {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "lockbench-stranger-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "probe")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(spec)
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run=^TestStranger$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{strangerEnv + "=" + string(js), "HOME=" + dir, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe as %s: %v\n%s", u.Username, err, out)
	}
	return out
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// TestStranger is the probe TestSelfStartedServersRefuseStrangers runs as
// another user; on its own it skips. It prints a line per attempt:
// REFUSED or ACCEPTED for one without credentials, CONTROL or
// CONTROL-FAILED for one with them.
func TestStranger(t *testing.T) {
	js := os.Getenv(strangerEnv)
	if js == "" {
		t.Skip("the probe of TestSelfStartedServersRefuseStrangers, run as another user")
	}
	var s strangerSpec
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	defer cancel()
	try := func(what string, err error) {
		if err != nil {
			fmt.Printf("REFUSED %s: %v\n", what, err)
		} else {
			fmt.Printf("ACCEPTED %s\n", what)
		}
	}
	control := func(what string, err error) {
		if err != nil {
			fmt.Printf("CONTROL-FAILED %s: %v\n", what, err)
		} else {
			fmt.Printf("CONTROL %s\n", what)
		}
	}
	redisDo := func(addr, password string, args ...any) error {
		c := redis.NewClient(&redis.Options{Addr: addr, Password: password, MaxRetries: -1, DisableIdentity: true})
		defer c.Close()
		return c.Do(ctx, args...).Err()
	}
	for _, a := range s.Redis {
		try("redis "+a+" SET", redisDo(a, "", "SET", "stranger", "x"))
		try("redis "+a+" CONFIG SET", redisDo(a, "", "CONFIG", "SET", "dir", "/tmp"))
	}
	control("redis", redisDo(s.Redis[0], s.RedisPassword, "PING"))
	for _, a := range s.Sentinel {
		try("sentinel topology "+a+" INFO", redisDo(a, "", "INFO"))
		try("sentinel topology "+a+" CLIENT LIST", redisDo(a, "", "CLIENT", "LIST"))
	}
	control("sentinel", redisDo(s.Sentinel[0], s.SentinelPass, "PING"))
	pgConnect := func(url string) error {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, "COPY (SELECT 1) TO PROGRAM 'true'")
		return err
	}
	try("postgres superuser over TCP", pgConnect("postgres://postgres@"+s.Postgres+"/postgres?sslmode=disable"))
	try("postgres lock role over TCP", pgConnect("postgres://lockbench@"+s.Postgres+"/lockbench?sslmode=disable"))
	_, port, _ := strings.Cut(s.Postgres, ":")
	try("postgres superuser over the unix socket", pgConnect("host="+s.PostgresSocket+" port="+port+" user=postgres dbname=postgres"))
	control("postgres", func() error {
		c, err := pgx.Connect(ctx, s.PostgresURL)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		return c.Ping(ctx)
	}())
	zkDo := func(c *tls.Config, digest string, op func(c *zk.Conn) error) error {
		conn, ev, err := zk.Connect([]string{s.ZooKeeper}, 10*time.Second, zk.WithLogger(zkQuiet{}), zk.WithDialer(compose.ZooKeeperDialer(c)))
		if err != nil {
			return err
		}
		defer conn.Close()
		go func() {
			for range ev {
			}
		}()
		for end := time.Now().Add(5 * time.Second); conn.State() != zk.StateHasSession; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				return fmt.Errorf("no session in 5s: every connection closed without an answer (last state %v)", conn.State())
			}
		}
		if digest != "" {
			if err := conn.AddAuth("digest", []byte(digest)); err != nil {
				return err
			}
		}
		return op(conn)
	}
	create := func(c *zk.Conn) error {
		_, err := c.Create("/stranger", nil, 0, zk.WorldACL(zk.PermAll))
		return err
	}
	for _, w := range zkWords {
		try("zookeeper four-letter word "+w, fourLetterWord(s.ZooKeeper, w, nil))
	}
	for _, w := range []string{"ruok", "srvr"} {
		try("zookeeper four-letter word "+w+" over TLS without a certificate", fourLetterWord(s.ZooKeeper, w, strangerTLS))
	}
	try("zookeeper create without credentials", zkDo(nil, "", create))
	try("zookeeper create over TLS without a certificate, made-up digest credentials", zkDo(strangerTLS, "stranger:x", create))
	zkTLS, err := s.ZooKeeperTLS.config()
	if err != nil {
		t.Fatal(err)
	}
	control("zookeeper srvr over TLS with the certificate", fourLetterWord(s.ZooKeeper, "srvr", zkTLS))
	control("zookeeper", zkDo(zkTLS, s.ZooKeeperDigest, func(c *zk.Conn) error {
		_, _, err := c.Children("/")
		return err
	}))
	etcdDo := func(addr string, c *tls.Config, user, password string, put bool) error {
		cfg := clientv3.Config{Endpoints: []string{addr}, Username: user, Password: password, TLS: c,
			DialTimeout: 5 * time.Second, Logger: zap.NewNop()}
		if c != nil {
			cfg.Endpoints = []string{"https://" + addr}
		}
		cli, err := clientv3.New(cfg)
		if err != nil {
			return err
		}
		defer cli.Close()
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if put {
			_, err = cli.Put(cctx, "stranger", "x")
		} else {
			_, err = cli.Get(cctx, "lockbench", clientv3.WithPrefix())
		}
		if err != nil && c != nil {
			// gRPC reports a failed handshake as the deadline; the
			// reason is the handshake's.
			if _, herr := tlsHandshake(addr, c); herr != nil {
				err = fmt.Errorf("%w (handshake: %v)", err, herr)
			}
		}
		if err != nil && c == nil {
			err = fmt.Errorf("%w (closed without an answer: the port speaks TLS)", err)
		}
		return err
	}
	etcdTLS, err := s.EtcdTLS.config()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range s.Etcd {
		try("etcd "+a+" put", etcdDo(a, nil, "", "", true))
		try("etcd "+a+" get", etcdDo(a, nil, "", "", false))
		try("etcd "+a+" put over TLS without a certificate", etcdDo(a, strangerTLS, "", "", true))
		try("etcd "+a+" get over TLS without a certificate", etcdDo(a, strangerTLS, "", "", false))
		for _, path := range etcdHTTP {
			try("etcd "+a+" GET "+path, httpGet(&http.Client{Timeout: 10 * time.Second}, "http://"+a+path))
			try("etcd "+a+" GET "+path+" over TLS without a certificate", httpGet(&http.Client{Timeout: 10 * time.Second,
				Transport: &http.Transport{TLSClientConfig: strangerTLS}}, "https://"+a+path))
		}
	}
	control("etcd", etcdDo(s.Etcd[0], etcdTLS, s.EtcdUser, s.EtcdPassword, false))
	control("etcd /health", httpGet(&http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: etcdTLS}}, "https://"+s.Etcd[0]+"/health"))
	peer := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // a stranger trusts anything
	for _, a := range s.EtcdPeers {
		try("etcd peer "+a+" members", func() error {
			resp, err := peer.Get("https://" + a + "/members")
			if err != nil {
				return err
			}
			resp.Body.Close()
			return nil
		}())
	}
}

// strangerTLS is a stranger's TLS: it trusts any server and has no
// certificate to show.
var strangerTLS = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // a stranger trusts anything

// fourLetterWord sends a ZooKeeper four-letter word (over TLS with c) and
// fails unless it gets an answer.
func fourLetterWord(addr, word string, c *tls.Config) error {
	var conn net.Conn
	var err error
	if c != nil {
		conn, err = tlsHandshake(addr, c)
	} else {
		conn, err = net.DialTimeout("tcp", addr, 5*time.Second)
	}
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := conn.Write([]byte(word)); err != nil {
		return err
	}
	b, err := io.ReadAll(conn)
	switch {
	case len(b) > 0:
		return nil // answered: printed as ACCEPTED
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errors.New("no answer within 2s: the port waits for a TLS handshake")
	case err != nil:
		return err
	}
	return errors.New("the connection closed without an answer")
}

// tlsHandshake dials addr over TLS with c and completes the handshake,
// reading once so that a server's refusal of the client's certificate
// (sent after the client's side of a TLS 1.3 handshake) is seen.
func tlsHandshake(addr string, c *tls.Config) (net.Conn, error) {
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, c)
	if err != nil {
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if _, err := conn.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Time{})
	return conn, nil
}

// httpGet fails unless url answers 2xx.
func httpGet(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the connection closed without an answer (the port speaks TLS)", err)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	return nil
}

type zkQuiet struct{}

func (zkQuiet) Printf(string, ...any) {}

package compose_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
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
	Etcd            []string
	EtcdPeers       []string
	EtcdUser        string
	EtcdPassword    string
}

// TestSelfStartedServersRefuseStrangers: another local user (nobody,
// through syscall.Credential) gets no command through to any server
// lockbench starts — Redis, Sentinel, PostgreSQL (TCP and unix socket, as
// the superuser and as the lock's role), ZooKeeper (with no credentials
// and with made-up digest ones), etcd — while the same probe with the
// servers' credentials gets through (the refusals are authentication, not
// a network the stranger cannot use). No server's command line shows a
// password meanwhile.
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
		ZooKeeper: z.Addr(), ZooKeeperDigest: z.Digest(),
		Etcd: e.Addrs(), EtcdUser: e.Access.Username, EtcdPassword: e.Access.Password}
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
	if want := 2*len(spec.Redis) + 2*len(spec.Sentinel) + 3 + 3 + 2*len(spec.Etcd) + len(spec.EtcdPeers); refused != want || controls != 5 {
		t.Errorf("%d refusals and %d controls, want %d and 5:\n%s", refused, controls, want, out)
	}
}

// authRefusal is each server's way of saying "authenticate first":
// Redis and Sentinel, PostgreSQL (and the socket's directory), ZooKeeper
// (-124: the session closed, authentication required; NoAuth), etcd.
// etcd's peer port asks for a certificate of the run's CA.
var authRefusal = regexp.MustCompile(`NOAUTH|password authentication failed|permission denied|error: -124|zk: not authenticated|user name is empty|certificate required`)

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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	zkDo := func(digest string, op func(c *zk.Conn) error) error {
		c, ev, err := zk.Connect([]string{s.ZooKeeper}, 10*time.Second, zk.WithLogger(zkQuiet{}))
		if err != nil {
			return err
		}
		defer c.Close()
		go func() {
			for range ev {
			}
		}()
		if digest != "" {
			if err := c.AddAuth("digest", []byte(digest)); err != nil {
				return err
			}
		}
		return op(c)
	}
	create := func(c *zk.Conn) error {
		_, err := c.Create("/stranger", nil, 0, zk.WorldACL(zk.PermAll))
		return err
	}
	try("zookeeper create without credentials", zkDo("", create))
	try("zookeeper create with made-up digest credentials", zkDo("stranger:x", create))
	try("zookeeper list the lock prefix with made-up credentials", zkDo("stranger:x", func(c *zk.Conn) error {
		_, _, err := c.Children("/")
		return err
	}))
	control("zookeeper", zkDo(s.ZooKeeperDigest, func(c *zk.Conn) error {
		_, _, err := c.Children("/")
		return err
	}))
	etcdDo := func(addr, user, password string, put bool) error {
		c, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, Username: user, Password: password,
			DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			return err
		}
		defer c.Close()
		if put {
			_, err = c.Put(ctx, "stranger", "x")
		} else {
			_, err = c.Get(ctx, "lockbench", clientv3.WithPrefix())
		}
		return err
	}
	for _, a := range s.Etcd {
		try("etcd "+a+" put", etcdDo(a, "", "", true))
		try("etcd "+a+" get", etcdDo(a, "", "", false))
	}
	control("etcd", etcdDo(s.Etcd[0], s.EtcdUser, s.EtcdPassword, false))
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

type zkQuiet struct{}

func (zkQuiet) Printf(string, ...any) {}

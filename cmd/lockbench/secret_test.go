package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results/redact"
)

// secretURLs are local masters as --redis entries, password included.
func secretURLs(r *compose.Redis) []string {
	out := make([]string, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = s.Endpoint().SecretURL()
	}
	return out
}

// hostilePassword is a password holding every character that breaks a URL
// parser, a list split or a scanner looking for the authority's end
// (spaced adds a comma and a space); each use gets its own (n), so a
// password one case taught redact does not hide another's.
func hostilePassword(n int, spaced bool) string {
	pw := fmt.Sprintf("Sekr3t%d/w#x?y@z:%%41q", n)
	if spaced {
		pw += ",Qv9k xWm2"
	}
	return pw
}

// userinfo is u:pw as a URL carries it (a comma escaped too: --redis is
// a comma-separated list).
func userinfo(u, pw string) string {
	return strings.ReplaceAll(url.UserPassword(u, pw).String(), ",", "%2C")
}

// fragments are the secret and its alphanumeric runs of 4 or more: a
// message that shows part of a password shows one of them.
func fragments(secret string) []string {
	out := []string{secret}
	for _, f := range strings.FieldsFunc(secret, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if len(f) >= 4 {
			out = append(out, f)
		}
	}
	return out
}

// leakWatch records, while a test runs, every process command line and
// /metrics page that shows a secret: one of want, or any secret the
// process has learnt (redact.Known masks something).
type leakWatch struct {
	want    []string
	metrics string // http://host:port/metrics, "" for none
	mu      sync.Mutex
	leaks   map[string]string // where → what
	scans   int
	pages   int
	stop    chan struct{}
	done    chan struct{}
}

func watchLeaks(t *testing.T, metrics string, want ...string) *leakWatch {
	w := &leakWatch{want: want, metrics: metrics, leaks: map[string]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	t.Cleanup(w.end)
	return w
}

func (w *leakWatch) shows(s string) bool {
	if redact.Known(s) != s {
		return true
	}
	for _, x := range w.want {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func (w *leakWatch) loop() {
	defer close(w.done)
	for {
		cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range cmdlines {
			b, err := os.ReadFile(p)
			if err == nil && w.shows(string(b)) {
				w.note(p, strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
		if w.metrics != "" {
			if resp, err := http.Get(w.metrics); err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				w.mu.Lock()
				w.pages++
				w.mu.Unlock()
				if w.shows(string(b)) {
					w.note("/metrics", string(b))
				}
			}
		}
		w.mu.Lock()
		w.scans++
		w.mu.Unlock()
		select {
		case <-w.stop:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (w *leakWatch) note(where, what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.leaks[where] = what
}

func (w *leakWatch) end() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
}

// check ends the watch and fails t for every leak seen; it also fails a
// watch that looked too few times to mean anything.
func (w *leakWatch) check(t *testing.T) {
	t.Helper()
	w.end()
	for where, what := range w.leaks {
		t.Errorf("%s shows a secret: %.300s", where, what)
	}
	if w.scans < 3 || (w.metrics != "" && w.pages == 0) {
		t.Errorf("watched %d times, %d /metrics pages: too few to say anything", w.scans, w.pages)
	}
}

// showsIn fails t for every text (stdout, stderr, each file under dirs)
// that holds one of secrets.
func showsIn(t *testing.T, texts map[string]string, dirs []string, secrets ...string) {
	t.Helper()
	for _, d := range dirs {
		_ = filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				b, _ := os.ReadFile(p)
				texts[p] = string(b)
			}
			return nil
		})
	}
	for where, text := range texts {
		for _, s := range secrets {
			for _, f := range append(fragments(s), url.QueryEscape(s), url.PathEscape(s)) {
				if strings.Contains(text, f) {
					t.Errorf("%s shows %q of %q:\n%.400s", where, f, s, text)
				}
			}
		}
	}
}

// TestHostileSecretsRefused: a password in every endpoint form lockbench
// refuses (scheme typos, unescaped URLs, credentials where none are read,
// unreachable servers, a wrong password) is masked in the one-line error,
// and written nowhere.
func TestHostileSecretsRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	addr := r.Addrs()[0]
	esc := func(pw string) string { return userinfo("u", pw) }
	cases := []struct {
		name string
		args func(pw string) []string
	}{
		{"scheme typo one slash", func(pw string) []string { return []string{"--redis", "redis:/:" + pw + "@" + addr} }},
		{"scheme typo no slash", func(pw string) []string { return []string{"--redis", "redis::" + pw + "@" + addr} }},
		{"unescaped url", func(pw string) []string { return []string{"--redis", "redis://:" + pw + "@" + addr} }},
		{"unescaped rediss url", func(pw string) []string { return []string{"--redis", "rediss://u:" + pw + "@" + addr} }},
		{"bad escape", func(pw string) []string { return []string{"--redis", "redis://:%zz" + pw + "@" + addr} }},
		{"bad port", func(pw string) []string { return []string{"--redis", "redis://" + esc(pw) + "@" + "127.0.0.1:bad"} }},
		{"unix url", func(pw string) []string { return []string{"--redis", "unix://u:" + pw + "@/tmp/redis.sock"} }},
		{"host port with credentials", func(pw string) []string { return []string{"--redis", "u:" + pw + "@" + addr} }},
		{"list", func(pw string) []string { return []string{"--redis", addr + ",redis://:" + pw + "@127.0.0.1:1"} }},
		{"wrong password", func(pw string) []string { return []string{"--redis", "redis://" + esc(pw) + "@" + addr} }},
		{"etcd https url", func(pw string) []string {
			return []string{"--backend", "etcd", "--etcd", "https://user:" + pw + "@127.0.0.1:1"}
		}},
		{"etcd escaped url", func(pw string) []string {
			return []string{"--backend", "etcd", "--etcd", "https://" + esc(pw) + "@127.0.0.1:1"}
		}},
		{"postgres url unreachable", func(pw string) []string {
			return []string{"--backend", "postgres", "--postgres", "postgres://" + esc(pw) + "@127.0.0.1:1/db"}
		}},
		{"postgres url unparsable", func(pw string) []string {
			return []string{"--backend", "postgres", "--postgres", "postgres://u:" + pw + "@127.0.0.1:1/db"}
		}},
		{"postgres url query", func(pw string) []string {
			return []string{"--backend", "postgres", "--postgres", "postgres://u@127.0.0.1:1/db?password=" + url.QueryEscape(pw)}
		}},
		{"postgres dsn", func(pw string) []string {
			return []string{"--backend", "postgres", "--postgres", "host=127.0.0.1 port=1 user=u password=" + pw + " dbname=d"}
		}},
		{"postgres dsn quoted", func(pw string) []string {
			return []string{"--backend", "postgres", "--postgres", "host=127.0.0.1 port=1 password='" + pw + "' dbname=d"}
		}},
		{"scheme typo, comma before the @", func(pw string) []string {
			return []string{"--redis", "redis:/:" + strings.Replace(pw, "/", ",", 1) + "@" + addr}
		}},
		{"zookeeper, comma before the @", func(pw string) []string {
			return []string{"--backend", "zookeeper", "--zookeeper", "u:" + strings.Replace(pw, "/", ",", 1) + "@127.0.0.1:1"}
		}},
		{"scheme inside the password", func(pw string) []string { return []string{"--redis", "redis:/:" + pw + "://x@" + addr} }},
		{"zookeeper credentials", func(pw string) []string {
			return []string{"--backend", "zookeeper", "--zookeeper", "u:" + pw + "@127.0.0.1:1"}
		}},
	}
	w := watchLeaks(t, "")
	for i, c := range cases {
		for _, spaced := range []bool{false, true} {
			pw := hostilePassword(100+i, spaced)
			w.mu.Lock()
			w.want = append(w.want, fragments(pw)...)
			w.mu.Unlock()
			t.Run(fmt.Sprintf("%s/spaced=%t", c.name, spaced), func(t *testing.T) {
				dir := t.TempDir()
				args := append([]string{"run", "--duration", "300ms", "--json", filepath.Join(dir, "s.json"), "--out", filepath.Join(dir, "out")}, c.args(pw)...)
				stdout, stderr, code := cli(t, time.Minute, args...)
				if code == exitOK {
					t.Fatalf("exit 0 for a bad endpoint\n%s", stderr)
				}
				if !strings.Contains(stderr, redact.Mask) && !strings.Contains(stderr, "WRONGPASS") && !strings.Contains(stderr, "unreachable") {
					t.Errorf("stderr %q: want the endpoint shown masked", stderr)
				}
				showsIn(t, map[string]string{"stdout": stdout, "stderr": stderr}, []string{dir}, pw)
			})
		}
	}
	w.check(t)
}

// TestHostileSecretsRun: masters whose password holds / # ? @ : % given
// in each supported way (an escaped URL, --redis-password-file, the
// environment) run, write every output (JSON, --out with its .hlog files,
// CSV on stdout, /metrics, the HTML report, the ceiling's
// redis-benchmark), and the password appears in none of them nor on any
// process's command line while they run.
func TestHostileSecretsRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 2})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	cpuBound(t)
	// One ACL user per way of giving the password, each its own password.
	user := func(n int) (string, string) {
		name, pw := fmt.Sprintf("u%d", n), hostilePassword(n, true)
		for _, s := range r.Servers {
			c := redis.NewClient(s.Endpoint().GoRedis())
			err := c.Do(context.Background(), "ACL", "SETUSER", name, "on", ">"+pw, "~*", "+@all").Err()
			c.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		return name, pw
	}
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "pw")
	type way struct {
		name  string
		redis string
		env   []string
		flags []string
		pw    string
	}
	var ways []way
	{
		u, pw := user(1)
		var urls []string
		for _, a := range r.Addrs() {
			urls = append(urls, "redis://"+userinfo(u, pw)+"@"+a)
		}
		ways = append(ways, way{name: "url", redis: strings.Join(urls, ","), pw: pw})
	}
	{
		u, pw := user(2)
		if err := os.WriteFile(pwFile, []byte(pw+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		ways = append(ways, way{name: "password-file", redis: strings.Join(r.Addrs(), ","), env: []string{"LOCKBENCH_REDIS_USER=" + u},
			flags: []string{"--redis-password-file", pwFile}, pw: pw})
	}
	{
		u, pw := user(3)
		ways = append(ways, way{name: "env", redis: strings.Join(r.Addrs(), ","),
			env: []string{"LOCKBENCH_REDIS_USER=" + u, "LOCKBENCH_REDIS_PASSWORD=" + pw}, pw: pw})
	}
	var all []string
	for _, w := range ways {
		all = append(all, fragments(w.pw)...)
	}
	for _, wy := range ways {
		t.Run(wy.name, func(t *testing.T) {
			port, err := compose.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			metrics := fmt.Sprintf("127.0.0.1:%d", port)
			watch := watchLeaks(t, "http://"+metrics+"/metrics", all...)
			d := t.TempDir()
			out, js, html := filepath.Join(d, "out"), filepath.Join(d, "s.json"), filepath.Join(d, "report.html")
			env := append([]string{"LOCKBENCH_REDIS_USER=", "LOCKBENCH_REDIS_PASSWORD="}, wy.env...)
			stdout, stderr, code := cliEnv(t, env, append([]string{"run", "--redis", wy.redis, "--workers", "2", "--rate", "300",
				"--warmup", "200ms", "--duration", "1500ms", "--node-timeout", "1s", "--format", "csv", "--json", js, "--out", out,
				"--metrics-addr", metrics}, wy.flags...)...)
			if code != exitOK {
				t.Fatalf("run: exit %d\n%s", code, stderr)
			}
			texts := map[string]string{"run stdout": stdout, "run stderr": stderr}
			cout, cerr, code := cliEnv(t, env, append([]string{"compare", "--redis", wy.redis, "--clients", "goredis", "--muxes", "sequential",
				"--workloads", "uncontended", "--workers", "2", "--rate", "300", "--warmup", "100ms", "--duration", "300ms",
				"--node-timeout", "1s", "--ceiling"}, wy.flags...)...)
			if code != exitOK {
				t.Fatalf("compare --ceiling: exit %d\n%s", code, cerr)
			}
			if !strings.Contains(cout+cerr, "ceiling") {
				t.Errorf("compare --ceiling says nothing of a ceiling:\n%s%s", cout, cerr)
			}
			texts["compare stdout"], texts["compare stderr"] = cout, cerr
			if _, rerr, code := cliEnv(t, nil, "report", out, "-o", html); code != exitOK {
				t.Fatalf("report: exit %d\n%s", code, rerr)
			}
			watch.check(t)
			showsIn(t, texts, []string{d}, wy.pw)
			if len(texts) < 7 {
				t.Errorf("only %d outputs checked", len(texts))
			}
		})
	}
	// The ceiling's throwaway users are gone.
	c := redis.NewClient(r.Servers[0].Endpoint().GoRedis())
	defer c.Close()
	users, err := c.Do(context.Background(), "ACL", "USERS").StringSlice()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if strings.HasPrefix(u, "lockbench-ceiling-") {
			t.Errorf("throwaway user %s left on the master", u)
		}
	}
}

// TestLocalSecretsRun: with every kind of server lockbench starts itself
// (Redis masters, PostgreSQL, ZooKeeper, etcd, the Sentinel topology), no
// generated password appears in any output, on any process's command line
// or in /metrics while the run goes.
func TestLocalSecretsRun(t *testing.T) {
	for _, backend := range []string{"redlock", "postgres", "zookeeper", "etcd", "single"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			cpuBound(t)
			port, err := compose.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			metrics := fmt.Sprintf("127.0.0.1:%d", port)
			watch := watchLeaks(t, "http://"+metrics+"/metrics")
			d := t.TempDir()
			stdout, stderr, code := cli(t, 3*time.Minute, "run", "--backend", backend, "--workers", "2", "--rate", "200",
				"--warmup", "200ms", "--duration", "1500ms", "--ttl", "2s", "--json", filepath.Join(d, "s.json"), "--out", filepath.Join(d, "out"),
				"--metrics-addr", metrics)
			if code != exitOK {
				t.Fatalf("run: exit %d\n%s", code, stderr)
			}
			watch.check(t)
			texts := map[string]string{"stdout": stdout, "stderr": stderr}
			showsIn(t, texts, []string{d})
			for where, text := range texts {
				if redact.Known(text) != text {
					t.Errorf("%s shows a generated password", where)
				}
			}
			if len(texts) < 4 {
				t.Errorf("only %d outputs checked", len(texts))
			}
		})
	}
}

package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
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

// TestHostileSecretsRefused: a password in every endpoint form lockbench
// refuses (scheme typos, unescaped URLs, credentials where none are read,
// unreachable servers, a wrong password) is masked in the one-line error,
// and written nowhere.
func TestHostileSecretsRefused(t *testing.T) {
	testenv.Servers(t)
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
			w.add(fragments(pw)...)
			t.Run(fmt.Sprintf("%s/spaced=%t", c.name, spaced), func(t *testing.T) {
				dir := t.TempDir()
				args := append([]string{"run", "--duration", "300ms", "--json", filepath.Join(dir, "s.json"), "--out", filepath.Join(dir, "out")}, c.args(pw)...)
				stdout, stderr, code := cli(t, time.Minute, args...)
				if code == exit.OK {
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
	testenv.Servers(t)
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
			port, err := procs.FreePort()
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
			if code != exit.OK {
				t.Fatalf("run: exit %d\n%s", code, stderr)
			}
			texts := map[string]string{"run stdout": stdout, "run stderr": stderr}
			cout, cerr, code := cliEnv(t, env, append([]string{"compare", "--redis", wy.redis, "--clients", "goredis", "--muxes", "sequential",
				"--workloads", "uncontended", "--workers", "2", "--rate", "300", "--warmup", "100ms", "--duration", "300ms",
				"--node-timeout", "1s", "--ceiling"}, wy.flags...)...)
			if code != exit.OK {
				t.Fatalf("compare --ceiling: exit %d\n%s", code, cerr)
			}
			if !strings.Contains(cout+cerr, "ceiling") {
				t.Errorf("compare --ceiling says nothing of a ceiling:\n%s%s", cout, cerr)
			}
			texts["compare stdout"], texts["compare stderr"] = cout, cerr
			if _, rerr, code := cliEnv(t, nil, "report", out, "-o", html); code != exit.OK {
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
	testenv.Servers(t)
	for _, backend := range []string{"redlock", "postgres", "zookeeper", "etcd", "single"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			cpuBound(t)
			port, err := procs.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			metrics := fmt.Sprintf("127.0.0.1:%d", port)
			watch := watchLeaks(t, "http://"+metrics+"/metrics")
			d := t.TempDir()
			stdout, stderr, code := cli(t, 3*time.Minute, "run", "--backend", backend, "--workers", "2", "--rate", "200",
				"--warmup", "200ms", "--duration", "1500ms", "--ttl", "2s", "--json", filepath.Join(d, "s.json"), "--out", filepath.Join(d, "out"),
				"--metrics-addr", metrics)
			if code != exit.OK {
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

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
)

// cliEnv is cli with extra environment variables ("K=V"), set for the
// rest of the test.
func cliEnv(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return cli(t, 3*time.Minute, args...)
}

// secureMode is one way masters are secured, and how a user gives lockbench
// what it needs to reach them.
type secureMode struct {
	name   string
	opt    compose.RedisOptions
	redis  func(r *compose.Redis) string // the --redis value
	env    func(r *compose.Redis) []string
	flags  []string
	secret func(r *compose.Redis) []string // what must never be shown
}

func secureModes(t *testing.T) []secureMode {
	files, err := certs.Generate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pwFile := filepath.Join(t.TempDir(), "pw")
	// writePassword puts the masters' password in file and sets nothing
	// in the environment, so the mode runs in parallel with the others
	// (the environment's password is acl-user's).
	writePassword := func(file string) func(r *compose.Redis) []string {
		return func(r *compose.Redis) []string {
			if err := os.WriteFile(file, []byte(r.Password+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return nil
		}
	}
	tlsPw, mtlsPw := filepath.Join(t.TempDir(), "tls-pw"), filepath.Join(t.TempDir(), "mtls-pw")
	hostPorts := func(r *compose.Redis) string { return strings.Join(r.Addrs(), ",") }
	withScheme := func(scheme string) func(r *compose.Redis) string {
		return func(r *compose.Redis) string { return scheme + strings.Join(r.Addrs(), ","+scheme) }
	}
	password := func(r *compose.Redis) []string { return []string{r.Password} }
	return []secureMode{
		{name: "plain", opt: compose.RedisOptions{Masters: 2, NoAuth: true}, redis: hostPorts,
			secret: func(*compose.Redis) []string { return nil }},
		{name: "password-in-url", opt: compose.RedisOptions{Masters: 2}, redis: func(r *compose.Redis) string { return strings.Join(secretURLs(r), ",") }, secret: password},
		{name: "password-file", opt: compose.RedisOptions{Masters: 2}, redis: hostPorts, secret: password,
			flags: []string{"--redis-password-file", pwFile}, env: writePassword(pwFile)},
		{name: "acl-user", opt: compose.RedisOptions{Masters: 2}, redis: hostPorts,
			env: func(r *compose.Redis) []string {
				for _, s := range r.Servers {
					c := redis.NewClient(s.Endpoint().GoRedis())
					err := c.Do(context.Background(), "ACL", "SETUSER", "bench", "on", ">bench-"+r.Password, "~*", "+@connection",
						"+role", "+info", "+set", "+get", "+del", "+pexpire", "+pttl", "+eval", "+evalsha", "+script|load").Err()
					c.Close()
					if err != nil {
						t.Fatal(err)
					}
				}
				return []string{redisconn.EnvUser + "=bench", redisconn.EnvPassword + "=bench-" + r.Password}
			},
			secret: func(r *compose.Redis) []string { return []string{"bench-" + r.Password} }},
		{name: "tls", opt: compose.RedisOptions{Masters: 2, TLS: compose.TLSFrom(files, false)}, redis: withScheme("rediss://"),
			flags: []string{"--tls-ca-cert", files.CA, "--redis-password-file", tlsPw}, secret: password, env: writePassword(tlsPw)},
		{name: "mtls", opt: compose.RedisOptions{Masters: 2, TLS: compose.TLSFrom(files, true)}, redis: withScheme("rediss://"),
			flags:  []string{"--tls-ca-cert", files.CA, "--tls-cert", files.ClientCert, "--tls-key", files.ClientKey, "--redis-password-file", mtlsPw},
			secret: password, env: writePassword(mtlsPw)},
	}
}

// TestSecureMasters: the same matrix (both clients × all four muxes, plus
// the redsync and rueidislock rows) runs against plain, password, ACL-user,
// TLS and mutual-TLS masters; every output and artefact of it, the HTML
// report and gobench lines included, is free of the password.
func TestSecureMasters(t *testing.T) {
	testenv.Servers(t)
	for _, m := range secureModes(t) {
		t.Run(m.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			r, err := compose.StartRedis(ctx, m.opt)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = r.Close() })
			var env []string
			if m.env != nil {
				env = m.env(r)
			}
			if len(env) == 0 {
				// Nothing set in the environment: this mode overlaps the
				// others that set nothing, once those that do are done.
				t.Parallel()
			}
			// Paced (--rate): what is tested is that every cell reaches the
			// masters and that nothing shows the password, not throughput.
			cpuBound(t) // 10 cells of 200 ms
			// Each cell's warmup and window, scaled for the machine's load
			// (internal/testenv/slow): on a machine shared with another
			// suite a 200 ms window can pass without a worker getting a CPU.
			window := slow.D(200 * time.Millisecond).String()
			dir := t.TempDir()
			out, js := filepath.Join(dir, "out"), filepath.Join(dir, "c.json")
			args := append([]string{"compare", "--redis", m.redis(r), "--clients", "goredis,rueidis",
				"--muxes", "sequential,fanout,pipeline,auto", "--workloads", "uncontended", "--baselines", "redsync,rueidislock",
				"--workers", "4", "--node-timeout", "1s", "--warmup", window, "--duration", window, "--rate", "500", "--json", js, "--out", out}, m.flags...)
			cpu := slow.WatchCPU()
			stdout, stderr, code := cliEnv(t, env, args...)
			if code == exit.NoProgress {
				// A cell with no grant in its window: its workers
				// got no CPU, or it does not reach the masters. Only the
				// first fails the test on a machine with CPUs to spare.
				if share := cpu.Share(); share.Slowdown() >= slow.Starved {
					for _, s := range m.secret(r) {
						if strings.Contains(stderr, s) {
							t.Errorf("compare stderr shows the password")
						}
					}
					t.Skipf("inconclusive: a cell made no progress and %v\n%s", share, stderr)
				}
			}
			if code != 0 {
				t.Fatalf("compare: exit %d\n%s", code, stderr)
			}
			gb, gbErr, code := cliEnv(t, env, append([]string{"run", "--redis", m.redis(r), "--format", "gobench", "--client", "rueidis",
				"--mux", "auto", "--workers", "2", "--node-timeout", "1s", "--warmup", window, "--duration", window, "--rate", "500"}, m.flags...)...)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s", code, gbErr)
			}
			report := filepath.Join(dir, "report.html")
			if _, rErr, code := cliEnv(t, nil, "report", out, "-o", report); code != 0 {
				t.Fatalf("report: exit %d\n%s", code, rErr)
			}
			sum, err := schema.ReadSummary(js)
			if err != nil {
				t.Fatal(err)
			}
			if len(sum.Runs) != 10 {
				t.Fatalf("%d runs, want 8 cells + redsync + rueidislock", len(sum.Runs))
			}
			for _, run := range sum.Runs {
				if run.Counts.Cycles == 0 || run.Counts.Errors > 0 {
					t.Errorf("%s: counts %+v", run.Name, run.Counts)
				}
			}
			if len(sum.Servers) != 2 || sum.Servers[0].Role != "master" || sum.Servers[0].TLS != (m.opt.TLS != nil) || sum.Servers[0].Version == "" {
				t.Errorf("servers' facts %+v", sum.Servers)
			}
			secrets := m.secret(r)
			shown := map[string]string{"compare stdout": stdout, "compare stderr": stderr, "gobench stdout": gb, "run stderr": gbErr}
			_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() {
					b, _ := os.ReadFile(p)
					shown[p] = string(b)
				}
				return nil
			})
			if len(shown) < 8 {
				t.Fatalf("only %d outputs to check", len(shown))
			}
			for where, text := range shown {
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("%s shows the password", where)
					}
				}
			}
		})
	}
}

// TestSecureMastersRefused: a wrong password, an untrusted CA and a plain
// client on a TLS port each end the run before it measures: exit 2, one
// line naming the master and the server's reason, nothing written.
func TestSecureMastersRefused(t *testing.T) {
	testenv.Servers(t)
	files, err := certs.Generate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	other, err := certs.Generate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pw, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	tl, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1, TLS: compose.TLSFrom(files, false)})
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	tlsURL := "rediss://:" + tl.Password + "@" + tl.Addrs()[0]
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"wrong password", []string{"--redis", "redis://:wrong-" + pw.Password + "@" + pw.Addrs()[0]}, "WRONGPASS"},
		{"no password", []string{"--redis", pw.Addrs()[0]}, "NOAUTH"},
		{"no password: the flag that gives one", []string{"--redis", pw.Addrs()[0]}, "or --redis-password-file)"},
		{"untrusted ca", []string{"--redis", tlsURL, "--tls-ca-cert", other.CA}, "(give the CA with --tls-ca-cert)"},
		{"system ca", []string{"--redis", tlsURL}, "unknown authority"},
		{"plain to tls port", []string{"--redis", "redis://:" + tl.Password + "@" + tl.Addrs()[0]}, "rediss://"},
		{"tls flags without rediss", []string{"--redis", pw.Addrs()[0], "--tls-ca-cert", files.CA}, "rediss://"},
		{"blank entry", []string{"--redis", pw.Addrs()[0] + ", "}, `" "`},
		{"empty", []string{"--redis", ""}, `--redis ""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			js, out := filepath.Join(dir, "s.json"), filepath.Join(dir, "out")
			stdout, stderr, code := cliEnv(t, nil, append([]string{"run", "--duration", "1s", "--json", js, "--out", out}, c.args...)...)
			if code != exit.Usage {
				t.Fatalf("exit %d, want %d\n%s%s", code, exit.Usage, stdout, stderr)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, c.want) {
				t.Fatalf("stderr %q: want one line with %q", stderr, c.want)
			}
			if strings.Contains(stderr, pw.Password) || strings.Contains(stderr, tl.Password) {
				t.Fatalf("stderr shows a password: %s", stderr)
			}
			for _, p := range []string{js, out} {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s written", p)
				}
			}
		})
	}
}

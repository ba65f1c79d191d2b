// Package scripts_test runs the shell scripts beside it against the machine.
package scripts_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/redis/go-redis/v9"
)

const systemRedis = "127.0.0.1:6379"

// TestDepsLeavesSystemRedisRunning: a redis-server the machine runs as its
// own service on 6379 is still running, the same process, after deps has
// installed something (redis-benchmark is hidden from its PATH, so it
// installs redis-tools).
func TestDepsLeavesSystemRedisRunning(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs apt-get")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: deps installs nothing, so it touches no service")
	}
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("no redis-server: apt-get install redis-server (or make deps)")
	}
	slow.Exclusive(t, "system-redis-and-apt") // another suite's copy of this test would stop the same service
	ln, err := net.Listen("tcp", systemRedis)
	if err != nil {
		t.Skipf("%s is taken (%v): the test starts its own system redis there", systemRedis, err)
	}
	ln.Close()
	policy := "/usr/sbin/policy-rc.d"
	policyBefore, policyErr := os.ReadFile(policy)

	startSystemRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: systemRedis})
	t.Cleanup(func() { rdb.Close() })
	pid := redisPID(t, rdb, "started by the test")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "./deps.sh")
	cmd.Env = append(os.Environ(), "PATH="+pathWithout(t, "redis-benchmark"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("deps.sh: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("installed redis-tools")) {
		t.Fatalf("deps.sh did not install redis-tools with redis-benchmark hidden:\n%s", out)
	}
	if got := redisPID(t, rdb, "after deps.sh:\n"+string(out)); got != pid {
		t.Fatalf("system redis-server pid %s before deps, %s after: deps restarted it\n%s", pid, got, out)
	}
	policyAfter, err := os.ReadFile(policy)
	if (policyErr == nil) != (err == nil) || !bytes.Equal(policyBefore, policyAfter) {
		t.Fatalf("%s changed by deps: before %q (%v), after %q (%v)", policy, policyBefore, policyErr, policyAfter, err)
	}
}

// startSystemRedis starts redis-server on 6379 as the machine's service
// (its init script, config and pidfile) where there is one, else as a plain
// process, and stops it when the test ends.
func startSystemRedis(t *testing.T) {
	initScript := "/etc/init.d/redis-server"
	if _, err := os.Stat(initScript); err == nil {
		if out, err := exec.Command(initScript, "start").CombinedOutput(); err != nil {
			t.Fatalf("%s start: %v\n%s", initScript, err, out)
		}
		t.Cleanup(func() {
			if out, err := exec.Command(initScript, "stop").CombinedOutput(); err != nil {
				t.Errorf("%s stop: %v\n%s", initScript, err, out)
			}
		})
		return
	}
	srv := exec.Command("redis-server", "--port", "6379", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
}

// redisPID is the process_id the server at 6379 reports, once it answers.
func redisPID(t *testing.T, rdb *redis.Client, when string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		info, err := rdb.Info(ctx, "server").Result()
		cancel()
		if err == nil {
			for _, line := range strings.Split(info, "\n") {
				if v, ok := strings.CutPrefix(line, "process_id:"); ok {
					return strings.TrimSpace(v)
				}
			}
			t.Fatalf("no process_id in INFO server:\n%s", info)
		}
		if time.Now().After(deadline) {
			t.Fatalf("system redis on %s, %s: %v", systemRedis, when, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pathWithout is $PATH with every directory that holds name replaced by a
// directory of links to everything else in it.
func pathWithout(t *testing.T, name string) string {
	t.Helper()
	var dirs []string
	for i, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			dirs = append(dirs, dir)
			continue
		}
		shadow := filepath.Join(t.TempDir(), "path", strings.Repeat("d", i+1))
		if err := os.MkdirAll(shadow, 0o755); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != name {
				if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(shadow, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		dirs = append(dirs, shadow)
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

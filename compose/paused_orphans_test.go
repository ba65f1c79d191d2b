package compose_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
)

// pausedEnv makes this test binary, re-executed, start the backend it
// names, pause it, print its server processes and wait to be killed.
const pausedEnv = "LOCKBENCH_TEST_PAUSED_SERVER"

// pausedServer starts and pauses one backend, returning the pids of its
// server processes and the dir whose processes must all go with it ("" if
// none beyond the pids).
type pausedServer func(ctx context.Context) (pids []int, dir string, err error)

var pausedServers = map[string]pausedServer{
	"postgres": func(ctx context.Context) ([]int, string, error) {
		p, err := compose.StartPostgres(ctx, compose.PostgresOptions{})
		if err != nil {
			return nil, "", err
		}
		// A session, so there is a backend besides the auxiliary processes.
		if _, err := pgx.Connect(ctx, p.URL()); err != nil {
			return nil, "", err
		}
		data := filepath.Join(p.SocketDir(), "data")
		if err := p.Pause(); err != nil {
			return nil, "", err
		}
		return append([]int{p.Pid()}, procs.Children(p.Pid(), "")...), data, nil
	},
	"redis": func(ctx context.Context) ([]int, string, error) {
		r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1})
		if err != nil {
			return nil, "", err
		}
		return []int{r.Servers[0].Pid()}, "", r.Servers[0].Pause()
	},
	"sentinel": func(ctx context.Context) ([]int, string, error) {
		s, err := compose.StartSentinel(ctx, compose.DefaultSentinelOptions())
		if err != nil {
			return nil, "", err
		}
		err = errors.Join(s.Master.Pause(), s.Replica.Pause())
		return []int{s.Master.Pid(), s.Replica.Pid(), s.Pid()}, "", err
	},
	"zookeeper": func(ctx context.Context) ([]int, string, error) {
		z, err := compose.StartZooKeeper(ctx, compose.ZooKeeperOptions{})
		if err != nil {
			return nil, "", err
		}
		return []int{z.Pid()}, "", z.Pause()
	},
	"etcd": func(ctx context.Context) ([]int, string, error) {
		e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
		if err != nil {
			return nil, "", err
		}
		return []int{e.Members[0].Pid()}, "", e.Members[0].Pause()
	},
}

// servePausedIfChild is the re-executed side: TestMain calls it first.
func servePausedIfChild() {
	name, ok := os.LookupEnv(pausedEnv)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pids, dir, err := pausedServers[name](ctx)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("dir", dir)
	fmt.Println("pids", strings.Trim(fmt.Sprint(pids), "[]"))
	<-ctx.Done() // killed by the test long before
	os.Exit(1)
}

// TestPausedServersDieWithLockbench: a process that started a server,
// paused it (SIGSTOP) and was then killed with SIGKILL leaves no server
// process behind. PostgreSQL's stopped backends would never notice their
// postmaster's death by themselves.
func TestPausedServersDieWithLockbench(t *testing.T) { // not parallel: its children outlive their parent
	testenv.Servers(t)
	for _, name := range []string{"postgres", "redis", "sentinel", "zookeeper", "etcd"} {
		t.Run(name, func(t *testing.T) {
			pids, dir := startPausedChild(t, name)
			var left []int
			deadline := time.Now().Add(10 * time.Second)
			for {
				left = leftProcesses(pids, dir)
				if len(left) == 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if len(left) > 0 {
				t.Errorf("10 s after the parent's SIGKILL, its paused server's processes remain: %s", describe(left))
				for _, pid := range left {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
				return
			}
			// The cluster's processes gone, its files go too.
			for root := filepath.Dir(dir); dir != ""; time.Sleep(50 * time.Millisecond) {
				if _, err := os.Stat(root); os.IsNotExist(err) {
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("%s remains after its processes are gone", root)
					break
				}
			}
		})
	}
}

// startPausedChild runs the child for backend name, reads what it started
// and kills the child with SIGKILL.
func startPausedChild(t *testing.T, name string) (pids []int, dir string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), pausedEnv+"="+name)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "error":
			if strings.Contains(sc.Text(), "not installed") || strings.Contains(sc.Text(), "not found in PATH") {
				t.Skip(sc.Text())
			}
			t.Fatal(sc.Text())
		case "dir":
			if len(f) > 1 {
				dir = f[1]
			}
		case "pids":
			for _, s := range f[1:] {
				pid, err := strconv.Atoi(s)
				if err != nil {
					t.Fatalf("child: %q", sc.Text())
				}
				pids = append(pids, pid)
			}
			if dir != "" && len(dirProcesses(dir)) < 3 {
				t.Fatalf("%d processes in %s: want the postmaster and its children", len(dirProcesses(dir)), dir)
			}
			return pids, dir // the deferred kill is the parent's death
		}
	}
	t.Fatal("child exited before it paused its server")
	return nil, ""
}

// leftProcesses are the live ones of pids (their parent killed, they are
// reparented and no longer anyone's to reap) and any process in dir.
func leftProcesses(pids []int, dir string) []int {
	var left []int
	for _, pid := range pids {
		if procs.Alive(pid) {
			left = append(left, pid)
		}
	}
	if dir != "" {
		for _, pid := range dirProcesses(dir) {
			if procs.Alive(pid) && !slices.Contains(left, pid) {
				left = append(left, pid)
			}
		}
	}
	return left
}

// dirProcesses are the processes whose working directory is dir.
func dirProcesses(dir string) []int {
	return procs.Pids(func(_ int, p string) bool {
		cwd, err := os.Readlink(p + "/cwd")
		return err == nil && (cwd == dir || cwd == dir+" (deleted)")
	})
}

// describe names each pid with its state and command line.
func describe(pids []int) string {
	var b strings.Builder
	for _, pid := range pids {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		s := string(stat)
		state := "?"
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
			state = s[i+2 : i+3]
		}
		fmt.Fprintf(&b, "\n  %d %s %s", pid, state, strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return b.String()
}

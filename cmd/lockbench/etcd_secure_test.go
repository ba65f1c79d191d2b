package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// TestEtcdSecureExternal: an etcd cluster with mutual TLS and auth, given
// by https:// endpoint, etcdctl-named flags and LOCKBENCH_ETCD_PASSWORD,
// is measured without its password in any output; a wrong password is
// refused before anything is written.
func TestEtcdSecureExternal(t *testing.T) { // not parallel: t.Setenv
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1, Secure: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	a := e.Access
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	args := []string{"run", "--backend", "etcd", "--etcd", "https://" + e.Addrs()[0], "--etcd-user", a.Username,
		"--etcd-cacert", a.CACert, "--etcd-cert", a.Cert, "--etcd-key", a.Key,
		"--workers", "2", "--warmup", "0s", "--duration", slow.D(500 * time.Millisecond).String(), "--json", js}
	stdout, stderr, code := cliEnv(t, []string{etcdconn.EnvPassword + "=" + a.Password}, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	for where, text := range map[string]string{"stdout": stdout, "stderr": stderr, "summary": string(b)} {
		if strings.Contains(text, a.Password) {
			t.Errorf("%s shows the etcd password", where)
		}
	}
	if !strings.Contains(string(b), `"acquired"`) || strings.Contains(string(b), `"acquired":0,`) {
		t.Errorf("no acquisitions measured: %s", b)
	}
	js2 := filepath.Join(dir, "wrong.json")
	_, stderr, code = cliEnv(t, []string{etcdconn.EnvPassword + "=wrong"}, append(args[:len(args)-1], js2)...)
	if code != exit.Usage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--etcd") {
		t.Fatalf("wrong password: exit %d, stderr %q: want exit 2 and one line naming --etcd", code, stderr)
	}
	if _, err := os.Stat(js2); !os.IsNotExist(err) {
		t.Errorf("%s written on a refused run", js2)
	}
}

// TestEtcdSecureLocal: --etcd-secure runs the local cluster with mutual TLS
// and auth, and the run still measures.
func TestEtcdSecureLocal(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	js := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := cli(t, 2*time.Minute, "run", "-q", "--backend", "etcd", "--etcd-members", "1", "--etcd-secure",
		"--workers", "2", "--warmup", "0s", "--duration", "500ms", "--json", js)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var sum struct {
		Config struct {
			Topology struct {
				Etcd struct{ Secure bool } `json:"etcd"`
			} `json:"topology"`
		} `json:"config"`
		Runs []struct {
			Counts struct{ Acquired int64 } `json:"counts"`
		} `json:"runs"`
	}
	readJSON(t, js, &sum)
	if !sum.Config.Topology.Etcd.Secure || len(sum.Runs) != 1 || sum.Runs[0].Counts.Acquired == 0 {
		t.Fatalf("secure %v, runs %+v", sum.Config.Topology.Etcd.Secure, sum.Runs)
	}
}

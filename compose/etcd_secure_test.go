package compose_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestEtcdSecure: a secure local cluster serves only TLS clients that
// trust its CA and log in as root.
func TestEtcdSecure(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var log strings.Builder
	e, err := compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1, Secure: true, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	defer e.Close()
	a := e.Access
	if !a.TLS || a.CACert == "" || a.Username != "root" || a.Password == "" {
		t.Fatalf("access %+v", a)
	}
	addr := e.Addrs()[0]
	if err := compose.EtcdPingWith(ctx, addr, a); err != nil {
		t.Fatalf("ping with access: %v", err)
	}
	noPass := a
	noPass.Password = "wrong"
	plain := etcdconn.Access{}
	noCA := a
	noCA.CACert = ""
	noCert := a
	noCert.Cert, noCert.Key = "", ""
	for name, bad := range map[string]etcdconn.Access{"wrong password": noPass, "plain": plain, "untrusted": noCA, "no client certificate": noCert} {
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := compose.EtcdPingWith(pctx, addr, bad)
		cancel()
		if err == nil {
			t.Errorf("%s: ping succeeded", name)
		}
	}
}

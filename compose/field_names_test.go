package compose

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/schema"
)

// TestInsecureTLSWarningNamesTheField: the warning of a master whose
// certificate was not checked names the config field that turned the
// check off, not a flag of the CLI.
func TestInsecureTLSWarningNamesTheField(t *testing.T) {
	w := warnings(schema.Server{Role: "master", AppendOnly: true, AppendFsync: "always", TLSVerifyOff: true})
	if len(w) != 1 || !strings.Contains(w[0], "redis_auth.tls.insecure_skip_verify") || strings.Contains(w[0], "--") {
		t.Errorf("warnings %q: want one naming redis_auth.tls.insecure_skip_verify and no flag", w)
	}
}

// TestSameServerNamesTheField: two masters that reach one redis-server
// are refused as bad input in redis_addrs (ErrSameServer), naming no flag.
func TestSameServerNamesTheField(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := StartRedis(ctx, RedisOptions{Masters: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e := r.Endpoints()[0]
	alias := e
	alias.Addr = strings.Replace(e.Addr, "127.0.0.1", "localhost", 1)
	topo, err := Up(ctx, Spec{RedisMasters: []redisconn.Endpoint{e, alias}})
	if err == nil {
		topo.Close()
		t.Fatal("two names of one server accepted as two masters")
	}
	var fe *fielderr.Error
	if !errors.As(err, &fe) || fe.Field != "redis_addrs" || !errors.Is(err, ErrSameServer) || strings.Contains(err.Error(), "--") {
		t.Errorf("error %v: want a field error of redis_addrs wrapping ErrSameServer, naming no flag", err)
	}
}

package compose_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/internal/testenv"
)

func startSecure(t *testing.T, opt compose.RedisOptions) *compose.Redis {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := compose.StartRedis(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// adminDo runs one command as the default user.
func adminDo(t *testing.T, e redisconn.Endpoint, args ...any) {
	t.Helper()
	c := redis.NewClient(e.GoRedis())
	defer c.Close()
	if err := c.Do(context.Background(), args...).Err(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// TestCheckMaster: every way to reach a master right passes the up-front
// check with its facts; every way to reach it wrong fails with the server's
// reason and a redacted master, never the password.
func TestCheckMaster(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own servers: overlaps the other parallel tests (none counts this process's children)
	files, err := certs.Generate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	otherCA, err := certs.Generate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	plain := startSecure(t, compose.RedisOptions{Masters: 2})
	tlsM := startSecure(t, compose.RedisOptions{Masters: 1, TLS: compose.TLSFrom(files, false)})
	mtls := startSecure(t, compose.RedisOptions{Masters: 1, TLS: compose.TLSFrom(files, true), Persistence: "always"})
	good := plain.Servers[0].Endpoint()
	if good.Password == "" {
		t.Fatal("local masters start without a password")
	}
	adminDo(t, good, "ACL", "SETUSER", "bench", "on", ">benchpw", "~*", "+@connection", "+role", "+info", "+set", "+get", "+del", "+pexpire", "+eval", "+evalsha")
	adminDo(t, good, "ACL", "SETUSER", "noscript", "on", ">benchpw", "~*", "+@connection", "+role", "+info", "+set", "+get", "+del", "+pexpire", "+eval")
	replica := plain.Servers[1].Endpoint()
	adminDo(t, replica, "CONFIG", "SET", "masterauth", good.Password)
	adminDo(t, replica, "REPLICAOF", good.Host(), good.Port())

	asUser := func(user string) redisconn.Endpoint { e := good; e.Username, e.Password = user, "benchpw"; return e }
	wrong := good
	wrong.Password = "not-the-password"
	none := good
	none.Password = ""
	untrusted := tlsM.Servers[0].Endpoint()
	untrusted.TLS, _ = redisconn.TLSFiles{CACert: otherCA.CA}.Config()
	plainToTLS := tlsM.Servers[0].Endpoint()
	plainToTLS.TLS = nil
	tlsToPlain := good
	tlsToPlain.TLS = untrusted.TLS
	noClientCert := mtls.Servers[0].Endpoint()
	noClientCert.TLS, _ = redisconn.TLSFiles{CACert: files.CA}.Config()

	cases := []struct {
		name string
		e    redisconn.Endpoint
		want string // "" passes
		aof  bool
	}{
		{"password", good, "", false},
		{"acl user", asUser("bench"), "", false},
		{"tls", tlsM.Servers[0].Endpoint(), "", false},
		{"mutual tls", mtls.Servers[0].Endpoint(), "", true},
		{"wrong password", wrong, "WRONGPASS", false},
		{"no password", none, "NOAUTH", false},
		{"acl user without evalsha", asUser("noscript"), "evalsha", false},
		{"untrusted ca", untrusted, "unknown authority", false},
		{"plain to tls port", plainToTLS, "rediss://", false},
		{"tls to plain port", tlsToPlain, "redis://", false},
		{"mutual tls without a client certificate", noClientCert, "", false},
		{"replica", replica, "not master", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			facts, err := compose.CheckMaster(context.Background(), c.e)
			if c.name == "mutual tls without a client certificate" {
				if err == nil {
					t.Fatal("a master asking for client certificates accepted none")
				}
				return
			}
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if facts.Role != "master" || facts.Version == "" || facts.TLS != c.e.Secure() || facts.AppendOnly != c.aof {
					t.Errorf("facts %+v", facts)
				}
				if hasWarning(facts.Warnings, "appendonly no") == c.aof {
					t.Errorf("appendonly %v: warnings %q", c.aof, facts.Warnings)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), good.Password) || strings.Contains(err.Error(), "benchpw") || strings.Contains(err.Error(), "not-the-password") {
				t.Fatalf("error shows a password: %v", err)
			}
			if !strings.Contains(err.Error(), c.e.Addr) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error does not name the master in one line: %v", err)
			}
		})
	}
}

func hasWarning(ws []string, prefix string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}

// TestLocalMastersNeedThePassword: a self-started master refuses a client
// without the generated password, and never shows it on its command line.
func TestLocalMastersNeedThePassword(t *testing.T) {
	testenv.Servers(t)
	r := startSecure(t, compose.RedisOptions{Masters: 1})
	e := r.Servers[0].Endpoint()
	e.Password = ""
	if err := compose.Ping(context.Background(), e); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("ping without password: %v, want NOAUTH", err)
	}
	if err := compose.Ping(context.Background(), r.Servers[0].Endpoint()); err != nil {
		t.Fatal(err)
	}
	cmdline := procCmdline(t, r.Servers[0].Pid())
	if strings.Contains(cmdline, r.Password) {
		t.Fatalf("password on the command line: %s", cmdline)
	}
	open := startSecure(t, compose.RedisOptions{Masters: 1, NoAuth: true})
	if err := compose.Ping(context.Background(), redisconn.Endpoint{Addr: open.Servers[0].Addr()}); err != nil {
		t.Fatalf("NoAuth master: %v", err)
	}
}

func procCmdline(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

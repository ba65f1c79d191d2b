package redisconn

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/results/fielderr"
)

// TestResolve: every refusal is a field error naming the field that
// carries the bad value, so a CLI can name its flag.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	pw, empty := filepath.Join(dir, "pw"), filepath.Join(dir, "empty")
	if err := writeFile(pw, "secret\n"); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(empty, "\n"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		entries  []string
		auth     Auth
		file     string
		env      string
		field    string // "" for success
		masters  int
		password string
	}{
		{name: "no masters", masters: 0},
		{name: "tls without masters", auth: Auth{TLS: TLSFiles{CACert: "ca.pem"}}, field: "redis_auth.tls"},
		{name: "password file", entries: []string{"h:1"}, file: pw, masters: 1, password: "secret"},
		{name: "password from env", entries: []string{"h:1", "h:2"}, env: "fromenv", masters: 2, password: "fromenv"},
		{name: "missing password file", entries: []string{"h:1"}, file: filepath.Join(dir, "none"), field: "redis_auth.password_file"},
		{name: "empty password file", entries: []string{"h:1"}, file: empty, field: "redis_auth.password_file"},
		{name: "file and env", entries: []string{"h:1"}, file: pw, env: "x", field: "redis_auth.password_file"},
		{name: "bad entry", entries: []string{"h"}, field: "redis_addrs"},
		{name: "tls files, no rediss", entries: []string{"h:1"}, auth: Auth{TLS: TLSFiles{InsecureSkipVerify: true}}, field: "redis_auth.tls"},
		{name: "bad ca file", entries: []string{"rediss://h:1"}, auth: Auth{TLS: TLSFiles{CACert: filepath.Join(dir, "none")}}, field: "redis_auth.tls.ca_cert"},
		{name: "cert without key", entries: []string{"rediss://h:1"}, auth: Auth{TLS: TLSFiles{Cert: "c.pem"}}, field: "redis_auth.tls.cert"},
		{name: "key without cert", entries: []string{"rediss://h:1"}, auth: Auth{TLS: TLSFiles{Key: "k.pem"}}, field: "redis_auth.tls.key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvUser, "")
			t.Setenv(EnvPassword, c.env)
			a := c.auth
			masters, err := Resolve(c.entries, &a, c.file)
			if c.field != "" {
				var fe *fielderr.Error
				if !errors.As(err, &fe) || fe.Field != c.field {
					t.Fatalf("error %v, want a field error of %s", err, c.field)
				}
				return
			}
			if err != nil || len(masters) != c.masters {
				t.Fatalf("%d masters, error %v; want %d", len(masters), err, c.masters)
			}
			for _, m := range masters {
				if m.Password != c.password {
					t.Errorf("%s: password %q, want %q", m.Addr, m.Password, c.password)
				}
			}
		})
	}
}

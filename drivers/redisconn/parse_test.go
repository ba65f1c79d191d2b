package redisconn

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	auth := Auth{Username: "envuser", Password: "envpass"}
	cases := []struct {
		entry            string
		addr, user, pass string
		db               int
		tls              bool
		shown            string
	}{
		{"127.0.0.1:6379", "127.0.0.1:6379", "envuser", "envpass", 0, false, "redis://envuser:xxxxx@127.0.0.1:6379"},
		{"  h:1  ", "h:1", "envuser", "envpass", 0, false, "redis://envuser:xxxxx@h:1"},
		{"redis://h:2", "h:2", "envuser", "envpass", 0, false, "redis://envuser:xxxxx@h:2"},
		{"redis://:s3cret@h:3/2", "h:3", "", "s3cret", 2, false, "redis://:xxxxx@h:3/2"},
		{"redis://alice:s3cret@h:4", "h:4", "alice", "s3cret", 0, false, "redis://alice:xxxxx@h:4"},
		{"redis://alice@h:5", "h:5", "alice", "envpass", 0, false, "redis://alice:xxxxx@h:5"},
		{"rediss://bob:pw@h:6/1", "h:6", "bob", "pw", 1, true, "rediss://bob:xxxxx@h:6/1"},
	}
	for _, c := range cases {
		es, err := Parse([]string{c.entry}, auth)
		if err != nil {
			t.Fatalf("%q: %v", c.entry, err)
		}
		e := es[0]
		if e.Addr != c.addr || e.Username != c.user || e.Password != c.pass || e.DB != c.db || e.Secure() != c.tls {
			t.Errorf("%q: got %+v", c.entry, e)
		}
		if e.String() != c.shown {
			t.Errorf("%q: shown %q, want %q", c.entry, e.String(), c.shown)
		}
		j, _ := json.Marshal(struct{ M []Endpoint }{es})
		if strings.Contains(string(j)+fmt.Sprint(e)+fmt.Sprintf("%v %s", es, e), c.pass) {
			t.Errorf("%q: password shown: %s", c.entry, j)
		}
		g, r := e.GoRedis(), e.Rueidis()
		if g.Addr != e.Addr || g.Username != e.Username || g.Password != e.Password || g.DB != e.DB || (g.TLSConfig != nil) != c.tls {
			t.Errorf("%q: go-redis options %+v", c.entry, g)
		}
		if r.InitAddress[0] != e.Addr || r.Username != e.Username || r.Password != e.Password || r.SelectDB != e.DB || (r.TLSConfig != nil) != c.tls {
			t.Errorf("%q: rueidis options %+v", c.entry, r)
		}
		if c.tls && (g.TLSConfig.ServerName != "h" || r.TLSConfig.ServerName != "h") {
			t.Errorf("%q: server name %q / %q, want h", c.entry, g.TLSConfig.ServerName, r.TLSConfig.ServerName)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	cases := []struct {
		entries []string
		tls     TLSFiles
		want    string
	}{
		{[]string{""}, TLSFiles{}, `redis_addrs "": empty entry`},
		{[]string{"h:1", "  "}, TLSFiles{}, `redis_addrs "  ": empty entry`},
		{[]string{"h"}, TLSFiles{}, "want host:port"},
		{[]string{"h:0"}, TLSFiles{}, "bad port"},
		{[]string{"h:1", " h:1"}, TLSFiles{}, "listed twice"},
		{[]string{"http://u:topsecret@h:1"}, TLSFiles{}, "scheme"},
		{[]string{"redis://u:topsecret@h:1/x"}, TLSFiles{}, "database"},
		{[]string{"redis://u:topsecret@h:bad"}, TLSFiles{}, "port"},
		{[]string{"redis://u:topsecret@h:1?pool_size=1"}, TLSFiles{}, "no query"},
		{[]string{"redis://u:top/secret@h:1"}, TLSFiles{}, "percent-escape"},
		{[]string{"redis://u:top secret@h:1"}, TLSFiles{}, "percent-escape"},
		{[]string{"redis://u:top%zzsecret@h:1"}, TLSFiles{}, "percent-escape"},
		{[]string{"redis://u:top", "secret@h:1"}, TLSFiles{}, "comma"},
		{[]string{"h:2", "redis://u:top", "secret@h:1"}, TLSFiles{}, "comma"},
		{[]string{"redis://h:1"}, TLSFiles{InsecureSkipVerify: true}, `redis_auth.tls apply to rediss://`},
		{[]string{"rediss://h:1"}, TLSFiles{CACert: "/nonexistent"}, `redis_auth.tls.ca_cert "/nonexistent": `},
		{[]string{"rediss://h:1"}, TLSFiles{Cert: "c.pem"}, `redis_auth.tls.cert "c.pem": redis_auth.tls.key is needed too`},
	}
	for _, c := range cases {
		_, err := Parse(c.entries, Auth{TLS: c.tls})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.entries, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "top") || strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: error shows the password: %v", c.entries, err)
		}
	}
}

func TestLoadAuth(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/pw"
	if err := writeFile(file, "fromfile\n"); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvUser, "u")
	t.Setenv(EnvPassword, "")
	var a Auth
	if err := a.LoadAuth(file); err != nil || a.Password != "fromfile" || a.Username != "u" {
		t.Fatalf("file: %+v %v", a, err)
	}
	t.Setenv(EnvPassword, "fromenv")
	a = Auth{}
	if err := a.LoadAuth(""); err != nil || a.Password != "fromenv" {
		t.Fatalf("env: %+v %v", a, err)
	}
	if err := (&Auth{}).LoadAuth(file); err == nil {
		t.Fatal("password from file and env: want an error")
	}
}

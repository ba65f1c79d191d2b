package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/drivers/redisconn"
)

// TestBenchConnArgs: redis-benchmark reaches each master the way the
// clients do: user, password, database and TLS files.
func TestBenchConnArgs(t *testing.T) {
	files := redisconn.TLSFiles{CACert: "ca.pem", Cert: "c.pem", Key: "k.pem", InsecureSkipVerify: true}
	ms, err := redisconn.Parse("redis", []string{"h:1", "redis://:pw@h:2/3", "rediss://u:pw@h:4"}, redisconn.Auth{})
	if err != nil {
		t.Fatal(err)
	}
	ms[2].TLS.InsecureSkipVerify = true
	cases := []struct {
		want, not []string
	}{
		{want: []string{"-h h", "-p 1"}, not: []string{"-a", "--tls", "--user", "--dbnum"}},
		{want: []string{"-p 2", "-a pw", "--dbnum 3"}, not: []string{"--tls", "--user"}},
		{want: []string{"-p 4", "-a pw", "--user u", "--tls", "--sni h", "--cacert ca.pem", "--cert c.pem", "--key k.pem", "--insecure"}, not: []string{"--dbnum"}},
	}
	for i, c := range cases {
		args := benchConnArgs(ms[i], files)
		line := " " + strings.Join(args, " ") + " "
		for _, w := range c.want {
			if !strings.Contains(line, " "+w+" ") && !strings.HasSuffix(line, " "+w+" ") {
				t.Errorf("%s: args %q lack %q", ms[i], args, w)
			}
		}
		for _, n := range c.not {
			if slices.Contains(args, n) {
				t.Errorf("%s: args %q have %q", ms[i], args, n)
			}
		}
	}
}

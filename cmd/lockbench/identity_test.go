package main

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestMastersAreServers: --redis entries that reach one server — two
// names for its host, a port spelled with a leading zero, a line break
// that would drop the masters after it — are refused before any run: exit
// 2, one line naming the entries. Two distinct servers are accepted.
func TestMastersAreServers(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	urls := strings.Split(startMasters(t, 2), ",")
	a, b := urls[0], urls[1]
	i := strings.LastIndex(a, ":")
	port := a[i+1:]
	for _, c := range []struct {
		name, redis, want string
	}{
		{"localhost and 127.0.0.1", a + "," + strings.Replace(a, "127.0.0.1", "localhost", 1), "same redis-server"},
		{"leading zero", a + "," + a[:i+1] + "0" + port, "listed twice"},
		{"line break", a + "\n" + b, "line break"},
		{"line break, passwords in both", a + "\n" + b + "\t" + a, "line break"},
	} {
		_, stderr, code := cli(t, time.Minute, "run", "--redis", c.redis, "--duration", "200ms", "--warmup", "0s", "--workers", "1")
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code != exit.Usage || !strings.Contains(last, c.want) || !strings.Contains(last, "--redis") {
			t.Errorf("%s: exit %d, last line %q: want exit 2 naming --redis and %q", c.name, code, last, c.want)
		}
		if pw := a[strings.Index(a, "//")+2 : strings.LastIndex(a, "@")]; strings.Contains(stderr, strings.TrimPrefix(pw, ":")) {
			t.Errorf("%s: a password in %q", c.name, stderr)
		}
	}
	if _, stderr, code := cli(t, time.Minute, "run", "--redis", a+","+b, "--duration", "300ms", "--warmup", "0s", "--workers", "1", "-q"); code != exit.OK {
		t.Errorf("two servers: exit %d\n%s", code, stderr)
	}
}

package main

import (
	"github.com/lockbench/lockbench/internal/exit"
	"strings"
	"testing"
	"time"
)

// TestDelayBadInput: the delay line refuses what it cannot relay before
// it listens — one line naming the flag or the pair, exit 2 — and never
// shows credentials typed into a pair.
func TestDelayBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no pair", nil, "LISTEN=TARGET"},
		{"negative round trip", []string{"--rtt", "-1ms", "127.0.0.1:0=127.0.0.1:6379"}, "--rtt"},
		{"round trip beyond any network", []string{"--rtt", "1000h", "127.0.0.1:0=127.0.0.1:6379"}, "--rtt"},
		{"jitter above the round trip", []string{"127.0.0.1:0=127.0.0.1:6379@1ms±2ms"}, "pair 127.0.0.1:0=127.0.0.1:6379"},
		{"listen port out of range", []string{"127.0.0.1:99999=127.0.0.1:6379"}, "LISTEN"},
		{"listen without a port", []string{"nohost=127.0.0.1:6379"}, "LISTEN"},
		{"target port out of range", []string{"127.0.0.1:0=127.0.0.1:99999"}, "TARGET"},
		{"target port 0", []string{"127.0.0.1:0=127.0.0.1:0"}, "TARGET"},
		{"credentials in a target", []string{"127.0.0.1:0=user:hunter2secretpw@127.0.0.1:6379"}, "pair"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := cli(t, 20*time.Second, append([]string{"delay"}, c.args...)...)
			if code != exit.Usage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming %s", code, stderr, c.want)
			}
			if strings.Contains(stderr, "hunter2secretpw") {
				t.Errorf("stderr shows the password: %s", stderr)
			}
		})
	}
}

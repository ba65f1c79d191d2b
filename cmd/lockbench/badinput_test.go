package main

import (
	"github.com/lockbench/lockbench/internal/exit"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every bad input: one line on stderr naming the flag and value, exit 2,
// nothing written, no server started (it returns long before one could be).
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.json")
	foreign, safety := filepath.Join(dir, "foreign.json"), filepath.Join(dir, "safety.json")
	for path, body := range map[string]string{foreign: `{"hello": "world"}`, safety: `{"config": {}, "points": []}`} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		want string // must appear in the error line
	}{
		{"unknown backend", []string{"run", "--backend", "chubby"}, "chubby"},
		{"unknown client", []string{"run", "--client", "jedis"}, "jedis"},
		{"unknown mux", []string{"run", "--mux", "carrier-pigeon"}, "carrier-pigeon"},
		{"unknown workload", []string{"run", "--workload", "bursty"}, "bursty"},
		{"masters 0", []string{"run", "--masters", "0"}, "--masters"},
		{"workers 0", []string{"run", "--workers", "0"}, "--workers"},
		{"negative duration", []string{"run", "--duration", "-1s"}, "--duration"},
		{"zero duration", []string{"run", "--duration", "0s"}, "--duration"},
		{"unparsable duration", []string{"run", "--duration", "soon"}, "--duration"},
		{"unparsable ttl", []string{"run", "--ttl", "ten"}, "--ttl"},
		{"zero ttl", []string{"run", "--ttl", "0s"}, "--ttl"},
		{"ttl below node timeout", []string{"run", "--ttl", "40ms", "--node-timeout", "50ms"}, "--ttl"},
		{"contended no keys", []string{"run", "--workload", "contended", "--keys", "0"}, "--keys"},
		{"bad redis addr", []string{"run", "--redis", "localhost"}, "localhost"},
		{"duplicate redis addr", []string{"run", "--redis", "127.0.0.1:7001,127.0.0.1:7001"}, "127.0.0.1:7001"},
		{"unreachable redis", []string{"run", "--redis", "127.0.0.1:1", "--json", out}, `--redis "127.0.0.1:1": unreachable`},
		{"unreachable etcd", []string{"run", "--backend", "etcd", "--etcd", "127.0.0.1:1", "--json", out}, `--etcd "127.0.0.1:1": unreachable`},
		{"unreachable zookeeper", []string{"run", "--backend", "zookeeper", "--zookeeper", "127.0.0.1:1", "--json", out}, `--zookeeper "127.0.0.1:1": unreachable`},
		{"unreachable postgres", []string{"run", "--backend", "postgres", "--postgres", "postgres://u@127.0.0.1:1/db", "--json", out}, `--postgres "postgres://u@127.0.0.1:1/db": unreachable`},
		{"unwritable json", []string{"run", "--json", "/nonexistent-dir/s.json"}, "--json"},
		{"bad persistence", []string{"run", "--persistence", "sometimes"}, "sometimes"},
		{"absurd workers", []string{"run", "--workers", "100000"}, "--workers 100000"},
		{"fault after the run", []string{"run", "--warmup", "1s", "--duration", "2s", "--fault", "kill:masters=1:at=3s"}, "kill:masters=1:at=3s"},
		{"fault long after the run", []string{"run", "--duration", "2s", "--fault", "stop:masters=1:at=1m:for=1s"}, "at=1m"},
		{"json is a directory", []string{"run", "--json", dir}, "--json"},
		{"rueidis pipes not a power of two", []string{"run", "--rueidis-pipes", "3"}, "--rueidis-pipes"},
		{"negative rueidis flush delay", []string{"run", "--rueidis-max-flush-delay", "-1ms"}, "--rueidis-max-flush-delay"},
		{"negative goredis pool", []string{"run", "--goredis-pool-size", "-1"}, "--goredis-pool-size"},
		{"negative max in flight", []string{"run", "--max-in-flight", "-1"}, "--max-in-flight"},
		{"max in flight off the pipeline", []string{"run", "--mux", "fanout", "--max-in-flight", "4"}, "--max-in-flight"},
		{"rtt per master, too few", []string{"run", "--masters", "5", "--rtt-per-master", "300us,1ms"}, "--rtt-per-master"},
		{"rtt per master, too many", []string{"compare", "--masters", "3", "--rtt-per-master", "1ms,1ms,1ms,1ms"}, "--rtt-per-master"},
		{"rtt per master beside rtt", []string{"compare", "--rtt", "1ms", "--rtt-per-master", "1ms,1ms,1ms,1ms,1ms"}, "--rtt-per-master"},
		{"rtt jitter above rtt", []string{"compare", "--rtt", "0,1ms±2ms"}, "--rtt"},
		{"rtt not a duration", []string{"compare", "--rtt", "far"}, "--rtt"},
		{"rtt at the node timeout", []string{"compare", "--rtt", "50ms", "--node-timeout", "50ms"}, "--rtt"},
		{"rtt listed twice", []string{"compare", "--rtt", "1ms,1ms±10us"}, "--rtt"},
		{"run rtt jitter above rtt", []string{"run", "--rtt", "1ms±2ms"}, "--rtt"},
		{"run rtt at the node timeout", []string{"run", "--rtt", "60ms"}, "--rtt"},
		{"run rtt at the node timeout, mended", []string{"run", "--rtt", "60ms"}, "(raise --node-timeout)"},
		{"etcd ca file missing", []string{"run", "--backend", "etcd", "--etcd", "127.0.0.1:1", "--etcd-cacert", "/nonexistent/ca.pem", "--json", out}, `--etcd-cacert "/nonexistent/ca.pem"`},
		{"run rtt beside rtt per master", []string{"run", "--rtt", "1ms", "--rtt-per-master", "1ms,1ms,1ms,1ms,1ms"}, "--rtt-per-master"},
		{"delay pair without target", []string{"delay", "127.0.0.1:0"}, "LISTEN=TARGET"},
		{"report of JSON that is no result", []string{"report", foreign, "-o", out}, `report "` + foreign + `": schema: neither a lockbench summary`},
		{"report of a safety sweep beside JSON that is no result", []string{"report", safety, foreign, "-o", out}, `report "` + foreign + `"`},
		{"unknown flag", []string{"run", "--frobnicate"}, "frobnicate"},
		{"unknown subcommand", []string{"frobnicate"}, "frobnicate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cli(t, 30*time.Second, tc.args...)
			if code != exit.Usage {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exit.Usage, stdout, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr %q: want one line naming %q", stderr, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("%s written on bad input", out)
			}
			if strings.Contains(stderr, "panic") {
				t.Fatal(stderr)
			}
		})
	}
}

func TestHelpStatesDefaults(t *testing.T) {
	stdout, _, code := cli(t, 30*time.Second, "run", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"--backend string", `(default "redlock")`, "--masters int", "(default 5)", "--node-timeout duration", "(default 50ms)", "--ttl duration", "(default 10s)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
}

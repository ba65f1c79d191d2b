package prom

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// TestServe: /metrics over HTTP shows a cell's counters rising between two
// scrapes, and Close stops serving.
func TestServe(t *testing.T) {
	e := New()
	srv, err := listen("127.0.0.1:0", e)
	if err != nil {
		t.Fatal(err)
	}
	cell := e.Cell(testLabels, 2)
	reg := record.NewRegistry(false)
	rec := reg.NewRecorder()
	scrape := func() string {
		t.Helper()
		resp, err := http.Get("http://" + srv.Addr() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for i, want := range []string{"} 1\n", "} 3\n"} {
		for range i + 1 {
			rec.Record(schema.OpCycle, schema.OK, 0, 0, 50_000)
		}
		cell.Observe(reg.Tick(), 0)
		body := scrape()
		line := ""
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(l, MetricCycles+"{") {
				line = l + "\n"
			}
		}
		if !strings.HasSuffix(line, want) {
			t.Errorf("scrape %d: %q, want the counter at%s", i, line, want)
		}
		if !strings.Contains(body, `lockbench_op_duration_seconds_bucket{backend="redlock",client="goredis",masters="5",mux="fanout",op="cycle",workload="contended",le="5e-05"}`) {
			t.Errorf("scrape %d: no cycle histogram bucket le=5e-05", i)
		}
	}
	if err := srv.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + srv.Addr() + "/metrics"); err == nil {
		t.Error("still serving after Close")
	}
}

// TestListenRefuses: a malformed or taken address is an error at once.
func TestListenRefuses(t *testing.T) {
	taken, err := listen("127.0.0.1:0", New())
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close(context.Background())
	for _, c := range []struct{ addr, want string }{
		{"9464", "want HOST:PORT"},
		{"", "want HOST:PORT"},
		{taken.Addr(), "in use"},
	} {
		if s, err := listen(c.addr, New()); err == nil || !strings.Contains(err.Error(), c.want) {
			if s != nil {
				s.Close(context.Background())
			}
			t.Errorf("Listen(%q): %v, want %q", c.addr, err, c.want)
		}
	}
}

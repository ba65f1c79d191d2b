package generators

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/gate"
)

// TestWatchAfterTheWindow: while generator 0's window lasts, the live view
// shows, logs and judges the merged snapshots; after it, it goes on showing
// the snapshots the others publish as their windows end, so the merged
// series reach the run's totals while the results are gathered, but it
// logs no line and aborts nothing (the merged run is judged at the end).
func TestWatchAfterTheWindow(t *testing.T) {
	// A client of nothing: an abort's store write fails after its own
	// timeout and the abort still takes effect locally, which is what
	// this test would see.
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"127.0.0.1:1"}, DialTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	m := &Member{cfg: Config{Generators: 2}, cli: cli, prefix: "run/", st: newState(), aborted: make(chan struct{})}
	put := func(i int, cycles int64) {
		b, err := json.Marshal(snapshot{ElapsedNS: int64(time.Second), Cycles: cycles})
		if err != nil {
			t.Fatal(err)
		}
		m.st.mu.Lock()
		m.st.vals[m.key("live", i)] = b
		m.st.mu.Unlock()
	}
	put(0, 100)
	put(1, 100)
	ts, err := gate.ParseThresholds([]string{"cycles_per_s<1000"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	window, windowEnd := context.WithCancel(ctx)
	shown := make(chan int64, 64)
	log := &testenv.Buffer{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Watch(ctx, window, "cell", ts, log, func(mg Merged) { shown <- mg.Run.Counts.Cycles })
	}()
	await := func(cycles int64) {
		t.Helper()
		for {
			select {
			case c := <-shown:
				if c == cycles {
					return
				}
			case <-ctx.Done():
				t.Fatalf("the merged series never showed %d cycles", cycles)
			}
		}
	}
	await(200)
	// A tick may be between its show and its log line: wait for the line.
	for !strings.Contains(log.String(), "\n") {
		select {
		case <-shown:
		case <-ctx.Done():
			t.Fatal("no live line while the window lasted")
		}
	}
	windowEnd()
	put(1, 5000) // generator 1's window ends later, far past the threshold
	await(5100)
	select { // the tick that showed 5100 has finished with it
	case <-shown:
	case <-done: // the view ended itself: an abort, judged below
	case <-ctx.Done():
		t.Fatal("the view stopped showing")
	}
	cancel()
	<-done
	// Every line the view logged is of the window's figures (a tick that
	// straddled the window's end may log them once more); none is of the
	// figures published after it.
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	for _, l := range lines {
		if l != lines[0] {
			t.Errorf("a live line after the window: %q (the window's: %q)", l, lines[0])
		}
	}
	if a := m.AbortErr(); a != nil {
		t.Errorf("aborted after the window: %v", a)
	}
}

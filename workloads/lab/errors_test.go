package lab

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/schema"
)

// TestMasterErrors: the error log's report named by label, times from the
// window, a master failing to the end for long enough named as stopped,
// messages most frequent first.
func TestMasterErrors(t *testing.T) {
	window := time.Now()
	end := window.Add(3 * time.Second)
	rep := []drivers.MasterReport{
		{Master: 0, Errors: 3, First: window.Add(500 * time.Millisecond),
			Messages: []schema.ErrorCount{{Message: "rare", Count: 1}, {Message: "often", Count: 2}}},
		{Master: 2, Errors: 40, First: window.Add(time.Second), FailingSince: window.Add(time.Second), Streak: 40},
		{Master: 1, Errors: 2, First: window.Add(-time.Second), FailingSince: end.Add(-100 * time.Millisecond), Streak: 2},
		{Master: 7, Errors: 1, First: window},
	}
	got := masterErrors(rep, []string{"a:1", "b:2", "c:3"}, window, end)
	if len(got) != 4 {
		t.Fatalf("%d entries", len(got))
	}
	for i, want := range []string{"a:1", "c:3", "b:2", "master 8"} {
		if got[i].Master != want || got[i].Index != rep[i].Master+1 {
			t.Errorf("entry %d: %s (%d), want %s", i, got[i].Master, got[i].Index, want)
		}
	}
	if got[0].Messages[0].Message != "often" || got[0].FirstS != 0.5 {
		t.Errorf("first entry %+v", got[0])
	}
	if got[1].StoppedS == nil || *got[1].StoppedS != 1 || got[1].StoppedFailures != 40 {
		t.Errorf("master c:3 failing since 1 s, 40 times: %+v", got[1])
	}
	if got[2].StoppedS != nil || got[2].FirstS != -1 {
		t.Errorf("master b:2 failing only for the last 100 ms is not stopped: %+v", got[2])
	}
}

// TestErrorCaptureCountsFailures: a Locker that does not name its servers
// gets its errors and timeouts counted under index 0; busy and granted
// attempts are answers.
func TestErrorCaptureCountsFailures(t *testing.T) {
	l, log := withErrorLog(fakeLocker{})
	ctx := t.Context()
	for _, key := range []string{"err", "busy", "ok", "err"} {
		_, _, _ = l.Lock(ctx, key)
	}
	rep := log.Errors()
	if len(rep) != 1 || rep[0].Errors != 2 || rep[0].Master != 0 {
		t.Fatalf("report %+v: want 2 errors on index 0", rep)
	}
	if _, ok := log.(errorCapture); !ok {
		t.Errorf("log %T: want the capture", log)
	}
}

type fakeLocker struct{}

func (fakeLocker) Lock(_ context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	switch key {
	case "err":
		return nil, drivers.Attempt{Masters: 1, Failed: 1}, errors.New("boom")
	case "busy":
		return nil, drivers.Attempt{Masters: 1, HeldByOther: 1}, drivers.ErrBusy
	}
	return nil, drivers.Attempt{Masters: 1, Won: 1}, nil
}

func (fakeLocker) Close() error { return nil }

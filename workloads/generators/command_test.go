package generators

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/results/output"
)

// TestExitError: a refusal at the join is bad input, a signal after the
// share an interruption, a signal before it an early one; a path that
// cannot be written is named by its flag.
func TestExitError(t *testing.T) {
	live := context.Background()
	canceled, cancel := context.WithCancel(live)
	cancel()
	if err := exitError(live, nil); err != nil {
		t.Errorf("nil: %v", err)
	}
	if code, _ := exit.Status(exitError(live, &JoinError{Err: errors.New("index taken")}), error.Error); code != exit.Usage {
		t.Errorf("join refused: exit %d, want %d", code, exit.Usage)
	}
	if err := exitError(canceled, fmt.Errorf("share: %w", ErrInterrupted)); !errors.Is(err, exit.ErrInterrupted) {
		t.Errorf("interrupted: %v", err)
	}
	if err := exitError(canceled, fmt.Errorf("join: %w", context.Canceled)); !errors.Is(err, exit.ErrInterruptedEarly) {
		t.Errorf("interrupted at the join: %v", err)
	}
	err := exitError(live, &output.Error{Dest: "json", Path: "x", Err: errors.New("cannot be written")})
	if !strings.Contains(err.Error(), "--json") {
		t.Errorf("output error: %q, want it to name --json", err)
	}
}

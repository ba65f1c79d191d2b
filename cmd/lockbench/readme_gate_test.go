package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// readmeRecipe is the sh block of the README that follows heading, as
// one script.
func readmeRecipe(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatalf("README: no sh block under %q", heading)
	}
	return block
}

// TestReadmeGateRecipe runs the README's gate recipe as written (bin/
// lockbench being this build) on an A/A pair: it decides, pass or
// regressed, not inconclusive; and with the head running 20 % fewer
// workers (a real slowdown) it says regressed. On a machine too busy for a
// decision (other packages' tests beside this one) inconclusive is the
// honest answer and is accepted; a pass of the slowdown never is.
func TestReadmeGateRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers")
	}
	slow.CPU(t)
	recipe := readmeRecipe(t, "## gate: did it regress")
	if !strings.Contains(recipe, "--workers 20") || !strings.Contains(recipe, "--until-decided") {
		t.Fatalf("the recipe is not the one this test knows:\n%s", recipe)
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		head    func(string) string
		want    int
		busyToo []int // also accepted on a busy machine
	}{
		{"A/A", func(s string) string { return s }, -1, []int{exitInconclusive}},
		{"head 20 % fewer workers", func(s string) string {
			base, head, _ := strings.Cut(s, "--head-cmd")
			return base + "--head-cmd" + strings.Replace(head, "--workers 20", "--workers 16", 1)
		}, exitFailure, []int{exitInconclusive}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			wrapper := "#!/bin/sh\n" + asLockbench + "=1 exec " + bin + " \"$@\"\n"
			if err := os.WriteFile(filepath.Join(dir, "bin", "lockbench"), []byte(wrapper), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), slow.D(8*time.Minute))
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-ec", tc.head(recipe))
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			ok := code == tc.want || tc.want < 0 && (code == exitOK || code == exitFailure)
			for _, c := range tc.busyToo {
				if !ok && code == c && slow.Factor() > 1 {
					t.Logf("exit %d on a machine %.1f× slower than idle: undecided, not wrong", code, slow.Factor())
					ok = true
				}
			}
			if !ok {
				t.Errorf("exit %d:\n%s", code, out)
			}
		})
	}
}

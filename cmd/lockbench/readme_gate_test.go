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

// TestReadmeGateRecipe runs the README's gate recipe as written, with
// bin/lockbench a plain build of this package (what make build makes: the
// race-instrumented test binary costs several times the CPU per cycle and
// is far noisier than anything a user gates), on a real slowdown: the head
// runs 20 % fewer workers. It must say regressed; on a machine too busy for
// a decision (other packages' tests beside this one) inconclusive is the
// honest answer and is accepted; a pass never is. How often the recipe
// decides an A/A pair, and how often wrongly, is measured alone by
// scripts/gatecal (docs/gate.md): a decision rate is not a test's to assert.
func TestReadmeGateRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers")
	}
	slow.CPU(t)
	recipe := readmeRecipe(t, "## gate: did it regress")
	base, head, ok := strings.Cut(recipe, "--head-cmd")
	if !ok || !strings.Contains(head, "--workers 20") || !strings.Contains(recipe, "--until-decided") {
		t.Fatalf("the recipe is not the one this test knows:\n%s", recipe)
	}
	slower := base + "--head-cmd" + strings.Replace(head, "--workers 20", "--workers 16", 1)

	dir := t.TempDir()
	build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "bin", "lockbench"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(8*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-ec", slower)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	switch {
	case code == exitFailure && strings.Contains(string(out), "gate: REGRESSED"):
	case code == exitInconclusive && slow.Factor() > 1:
		t.Logf("exit %d on a machine %.1f× slower than idle: undecided, not wrong", code, slow.Factor())
	default:
		t.Errorf("a head with 20 %% fewer workers: exit %d:\n%s", code, out)
	}
}

package lab_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// status is err's exit status and line as lockbench ends with them.
func status(err error) (int, string) { return exit.Status(err, lab.FlagsNamed) }

// TestBadInputNamesTheFlag: a field error is bad input naming the flag,
// from run's flags or from a command's own set first; other errors are bad
// input as they are, and bad input stays as it is.
func TestBadInputNamesTheFlag(t *testing.T) {
	fe := fielderr.Invalid("workload.workers", 0, "must be at least 1")
	if code, line := status(lab.BadInput(fe)); code != exit.Usage || line != "--workers 0: must be at least 1" {
		t.Errorf("BadInput(workers) = %d, %q", code, line)
	}
	type own struct {
		N int `json:"n" flag:"own-n" help:"a number"`
	}
	set := flagtag.New(pflag.NewFlagSet("own", pflag.ContinueOnError)).Bind(&own{})
	if _, line := status(lab.BadInput(fielderr.Invalid("n", 3, "too many"), set)); line != "--own-n 3: too many" {
		t.Errorf("BadInput(n, set) = %q", line)
	}
	if _, line := status(lab.BadInput(fielderr.Invalid("base.rtt", "1x", "bad"))); !strings.HasPrefix(line, "--rtt ") {
		t.Errorf("BadInput(base.rtt) = %q, want it named --rtt", line)
	}
	plain := exit.Usagef("already bad input")
	if got := lab.BadInput(plain); got != plain {
		t.Errorf("BadInput(bad input) = %v, want it as it is", got)
	}
	if code, line := status(lab.BadInput(errors.New("dial: refused"))); code != exit.Usage || line != "dial: refused" {
		t.Errorf("BadInput(other) = %d, %q", code, line)
	}
}

// TestOutputErrorNamesTheFlag: an output's destination, or an input's
// field, is named by its flag; a positional input's word is kept.
func TestOutputErrorNamesTheFlag(t *testing.T) {
	for dest, want := range map[string]string{
		"json":                            "--json",
		"cpuprofile":                      "--cpuprofile",
		"Topology.RedisAuth.PasswordFile": "--redis-password-file",
		"report":                          "report",
	} {
		err := lab.OutputError(&output.Error{Dest: dest, Path: "x", Err: errors.New("cannot be written")})
		if !strings.Contains(err.Error(), want) {
			t.Errorf("OutputError(%s) = %q, want it to name %s", dest, err, want)
		}
	}
}

// TestRunValidateNamesTheFlag: a run's checks before any server starts
// are bad input naming the flag: the cell's, and its outputs'.
func TestRunValidateNamesTheFlag(t *testing.T) {
	r := lab.DefaultRun()
	r.SetIO(io.Discard, io.Discard)
	r.Workload.Workers = 0
	if code, line := status(r.Validate()); code != exit.Usage || !strings.HasPrefix(line, "--workers 0") {
		t.Errorf("Validate(workers 0) = %d, %q", code, line)
	}
	r = lab.DefaultRun()
	r.SetIO(io.Discard, io.Discard)
	r.JSON = t.TempDir() // a directory, not a file
	if code, line := status(r.Validate()); code != exit.Usage || !strings.Contains(line, "--json") {
		t.Errorf("Validate(--json DIR) = %d, %q", code, line)
	}
}

// TestRunClaimOut: --out is claimed for the command; a file in its place
// is bad input naming --out.
func TestRunClaimOut(t *testing.T) {
	r := lab.DefaultRun()
	r.SetIO(io.Discard, io.Discard)
	r.Out = filepath.Join(t.TempDir(), "runs")
	release, err := r.ClaimOut()
	if err != nil {
		t.Fatal(err)
	}
	release()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Out = file
	if _, err := r.ClaimOut(); err == nil {
		t.Fatal("ClaimOut of a file: no error")
	} else if code, line := status(err); code != exit.Usage || !strings.Contains(line, "--out") {
		t.Errorf("ClaimOut(file) = %d, %q", code, line)
	}
}

// TestRunCheckFailures: a run without a grant ends with NoProgress, said
// with the flag that accepts it, unless failures were asked for.
func TestRunCheckFailures(t *testing.T) {
	none := []schema.Run{{Name: "redlock/goredis/pipeline/uncontended", Backend: "redlock", DurationS: 1,
		Counts: schema.Counts{Attempts: 100}}}
	r := lab.DefaultRun()
	r.SetIO(io.Discard, io.Discard)
	code, line := status(r.CheckFailures(none, true))
	if code != exit.NoProgress || !strings.HasSuffix(line, "(--allow-failures accepts that)") {
		t.Errorf("CheckFailures(no grant) = %d, %q", code, line)
	}
	r.AllowFailures = true
	if err := r.CheckFailures(none, true); err != nil {
		t.Errorf("CheckFailures(no grant, allowed) = %v", err)
	}
}

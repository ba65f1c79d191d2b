package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// readmeCommands are the `bin/lockbench ...` lines of the README's sh
// blocks, in order: what a reader copies. Lines in text blocks are shown,
// not run (they name servers the reader has and this machine does not).
func readmeCommands(t *testing.T) [][]string {
	t.Helper()
	// go test runs in the package's directory.
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds [][]string
	inSh, continued := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		wasContinued := continued
		continued = strings.HasSuffix(line, "\\")
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = !inSh && line == "```sh"
		case wasContinued || continued:
			// A command over several lines is a recipe run whole by a test
			// of its own (TestReadmeGateRecipe).
		case inSh && strings.HasPrefix(line, "bin/lockbench "):
			if i := strings.Index(line, " #"); i >= 0 {
				line = line[:i]
			}
			words, err := shellWords(strings.TrimPrefix(line, "bin/lockbench "))
			if err != nil {
				t.Fatalf("README: %q: %v", line, err)
			}
			cmds = append(cmds, words)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// shellWords splits a command line as sh does for the plain words and
// single-quoted strings the README uses.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, errUnterminatedQuote
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

type readmeError string

func (e readmeError) Error() string { return string(e) }

const errUnterminatedQuote = readmeError("unterminated quote")

// TestReadmeCommands runs every README command as written, in order, in
// one working directory (later commands read what earlier ones wrote). A
// command succeeds when it exits 0; the gate's verdicts (regressed,
// inconclusive) are answers too, but a usage error (2) never is.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers")
	}
	cmds := readmeCommands(t)
	if len(cmds) < 5 {
		t.Fatalf("README has %d bin/lockbench commands in sh blocks; want the examples", len(cmds))
	}
	cpuBound(t)
	t.Chdir(t.TempDir())
	for _, args := range cmds {
		ctx, cancel := context.WithTimeout(context.Background(), slow.D(3*time.Minute))
		stdout, stderr, code := runIn(ctx, args...)
		cancel()
		ok := code == 0 || (args[0] == "gate" && code != exit.Usage)
		if busy := slow.Factor(); !ok && (code == exit.Failure || code == exit.NoProgress) && busy > 1 {
			// The run's own verdict on a machine too busy for it (other
			// packages' tests beside this one): the command ran as written.
			t.Logf("bin/lockbench %s: exit %d on a machine %.1f× slower than idle: the run's verdict, not the README's",
				strings.Join(args, " "), code, busy)
			ok = true
		}
		if !ok {
			t.Errorf("bin/lockbench %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"run --duration 2s", []string{"run", "--duration", "2s"}},
		{"gate h/ --threshold 'violations==0'", []string{"gate", "h/", "--threshold", "violations==0"}},
		{"gate --threshold 'cycle.p99 < 2ms'  x", []string{"gate", "--threshold", "cycle.p99 < 2ms", "x"}},
	} {
		got, err := shellWords(tc.in)
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := shellWords("run 'open"); err == nil {
		t.Error("an unterminated quote was accepted")
	}
}

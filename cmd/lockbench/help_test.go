package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/exit"
	flaghelp "github.com/lockbench/lockbench/internal/flagtag/help"
	"github.com/lockbench/lockbench/workloads/lab"
)

// everyCommand is the path of root and every command below it, as args.
func everyCommand(c *cobra.Command, path []string) [][]string {
	all := [][]string{path}
	for _, sub := range c.Commands() {
		all = append(all, everyCommand(sub, append(append([]string(nil), path...), sub.Name()))...)
	}
	return all
}

func renderHelp(t *testing.T, path []string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := executeIO(context.Background(), append(path, "--help"), &stdout, &stderr); code != 0 {
		t.Fatalf("lockbench %v --help: exit %d: %s", path, code, stderr.String())
	}
	return stdout.String()
}

// helpSections splits a help text at its "Title:" lines.
func helpSections(help string) map[string]string {
	sections := map[string]string{}
	title := ""
	for _, line := range strings.Split(help, "\n") {
		if line != "" && line[0] != ' ' && strings.HasSuffix(line, ":") {
			title = strings.TrimSuffix(line, ":")
			continue
		}
		sections[title] += line + "\n"
	}
	return sections
}

// TestHelpScans: every command's help fits 100 columns, has examples, and
// shows each flag under the heading of its group.
func TestHelpScans(t *testing.T) {
	root := newRoot()
	for _, path := range everyCommand(root, nil) {
		t.Run(strings.Join(append([]string{"lockbench"}, path...), " "), func(t *testing.T) {
			help := renderHelp(t, path)
			for i, line := range strings.Split(help, "\n") {
				if n := utf8.RuneCountInString(line); n > helpWidth {
					t.Errorf("line %d is %d columns: %q", i+1, n, line)
				}
			}
			c0, _, _ := root.Find(path)
			if flaghelp.IsTopic(c0) {
				return // a topic is text, checked by TestHelpTopics
			}
			sections := helpSections(help)
			if !strings.Contains(sections["Examples"], "lockbench ") {
				t.Errorf("no Examples section:\n%s", help)
			}
			c, _, err := root.Find(path)
			if err != nil {
				t.Fatal(err)
			}
			c.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden {
					return
				}
				title := helpGroups.Of(f)
				if title == "" {
					title = flaghelp.OwnGroup(c)
				}
				if !regexp.MustCompile(`(?m)^(  -., |      )--` + f.Name + `( |$)`).MatchString(sections[title]) {
					t.Errorf("--%s not under %q", f.Name, title)
				}
			})
		})
	}
}

// TestRunHelpGroups: run's flags come in the six groups, in order.
func TestRunHelpGroups(t *testing.T) {
	help := renderHelp(t, []string{"run"})
	last := -1
	for _, g := range helpGroups.Order {
		i := strings.Index(help, "\n"+g+":\n")
		if i < 0 || i < last {
			t.Fatalf("group %q missing or out of order in:\n%s", g, help)
		}
		last = i
	}
	if !strings.Contains(help, "--mux string") || !strings.Contains(help, "(default \""+lab.DefaultMux+"\")") {
		t.Errorf("run --help does not state the default --mux %q", lab.DefaultMux)
	}
}

// TestFlagPlaceholders: a flag's value placeholder is one word (pflag takes
// a `quoted` word of the help as the placeholder).
func TestFlagPlaceholders(t *testing.T) {
	for _, path := range everyCommand(newRoot(), nil) {
		c, _, _ := newRoot().Find(path)
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if name, _ := pflag.UnquoteUsage(f); strings.ContainsAny(name, " \t") {
				t.Errorf("%s --%s: placeholder %q", c.CommandPath(), f.Name, name)
			}
		})
	}
}

// TestExamplesParse: every lockbench invocation in an Examples section
// names a command and flags that exist.
func TestExamplesParse(t *testing.T) {
	invocation := regexp.MustCompile(`lockbench [^&;|>)#\n]*`)
	for _, path := range everyCommand(newRoot(), nil) {
		c, _, _ := newRoot().Find(path)
		for _, ex := range invocation.FindAllString(c.Example, -1) {
			args := strings.Fields(strings.NewReplacer("'", "", `"`, "").Replace(ex))[1:]
			root := newRoot()
			cmd, rest, err := root.Find(args)
			if err == nil {
				err = cmd.ParseFlags(rest)
			}
			if err != nil && !errors.Is(err, pflag.ErrHelp) || cmd == root && len(args) > 0 {
				t.Errorf("%s example %q: %v", c.CommandPath(), ex, err)
			}
		}
	}
}

// TestSuggestions: a mistyped command or flag is bad input that names what
// was probably meant.
func TestSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"rnu"}, `unknown command "rnu" for "lockbench" (did you mean run?)`},
		{[]string{"compar"}, "(did you mean compare?)"},
		{[]string{"run", "--wrokers", "3"}, "unknown flag: --wrokers (did you mean --workers?)"},
		{[]string{"run", "--work", "3"}, "(did you mean --workers or --workload?)"},
		{[]string{"sweep", "--sol", "2ms"}, "--slo"},
		{[]string{"run", "--zzzzzz"}, "unknown flag: --zzzzzz\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := executeIO(context.Background(), tc.args, &stdout, &stderr)
		if code != exit.Usage || !strings.Contains(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("lockbench %v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestCLIDocCoversHelp: docs/cli.md names every command and every flag
// group the help shows.
func TestCLIDocCoversHelp(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range newRoot().Commands() {
		if c.IsAvailableCommand() && !strings.Contains(string(doc), "| `"+c.Name()+"` |") {
			t.Errorf("docs/cli.md: no row for command %s", c.Name())
		}
	}
	for _, g := range helpGroups.Order {
		if !strings.Contains(string(doc), "**"+g+"**") {
			t.Errorf("docs/cli.md: no flag group %q", g)
		}
	}
}

// TestHelpLeadsWithUsage: a command's help opens with its usage, what it
// does and its examples (all within the first 15 lines), and names the
// topic that tells how it works; each such topic prints that account.
func TestHelpLeadsWithUsage(t *testing.T) {
	for _, cmd := range []string{"run", "compare", "sweep", "gate"} {
		help := renderHelp(t, []string{cmd})
		lines := strings.Split(help, "\n")
		head := strings.Join(lines[:min(15, len(lines))], "\n")
		if !strings.HasPrefix(help, "Usage:\n  lockbench "+cmd) || strings.Count(head, "\n  lockbench "+cmd) < 3 {
			t.Errorf("%s --help: usage and examples not in its first 15 lines:\n%s", cmd, head)
		}
		m := regexp.MustCompile(`How it works: lockbench help (\S+)`).FindStringSubmatch(help)
		if m == nil {
			t.Errorf("%s --help names no topic", cmd)
			continue
		}
		var stdout, stderr bytes.Buffer
		if code := executeIO(context.Background(), []string{"help", m[1]}, &stdout, &stderr); code != 0 || stdout.Len() < 100 || strings.Contains(stdout.String(), "Usage:") {
			t.Errorf("lockbench help %s: exit %d, %d bytes: want its account, no usage", m[1], code, stdout.Len())
		}
	}
}

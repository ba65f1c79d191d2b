package help

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/flagtag"
)

type cell struct {
	Workload struct {
		Workers int `json:"workers" flag:"workers" help:"concurrent workers"`
		Keys    int `json:"keys" flag:"keys" help:"distinct keys"`
	} `json:"workload"`
	Topology struct {
		Masters int `json:"masters" flag:"masters" help:"local masters"`
	} `json:"topology"`
	JSON  string `json:"-" flag:"json" help:"summary file"`
	Other bool   `json:"other" flag:"other" help:"the command's own"`
}

var groups = Groups{
	Order:   []string{"Workload", "Servers", "Output"},
	ByField: []Prefix{{"workload.", "Workload"}, {"topology.", "Servers"}},
	ByName:  map[string]string{"json": "Output", "help": "Output"},
}

// program is a root with one command binding cell's flags, its account a
// topic, and h installed.
func program(h Help) *cobra.Command {
	root := &cobra.Command{Use: "prog", SuggestionsMinimumDistance: 2}
	run := &cobra.Command{Use: "run", Short: "run one cell", Long: "run measures a cell.", Example: "  prog run", Run: func(*cobra.Command, []string) {}}
	var c cell
	flagtag.New(run.Flags()).Bind(&c)
	root.AddCommand(run)
	h.Install(root)
	return root
}

func TestGroupsOf(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var c cell
	flagtag.New(fs).Bind(&c)
	fs.Bool("help", false, "help")
	fs.Bool("unbound", false, "not bound by flagtag")
	for _, tc := range []struct{ flag, group string }{
		{"workers", "Workload"}, {"keys", "Workload"}, {"masters", "Servers"},
		{"json", "Output"}, {"help", "Output"}, {"other", ""}, {"unbound", ""},
	} {
		if got := groups.Of(fs.Lookup(tc.flag)); got != tc.group {
			t.Errorf("--%s: group %q, want %q", tc.flag, got, tc.group)
		}
	}
}

func TestUsage(t *testing.T) {
	root := program(Help{Width: 60, Groups: groups, Topics: map[string]string{"run": "measuring"},
		Extra:    []*cobra.Command{{Use: "formats", Short: "what --format prints", Long: "the formats"}},
		Examples: map[string]string{"help": "  prog help run", "completion bash": "  source <(prog completion bash)"}})
	run, _, _ := root.Find([]string{"run"})
	run.InitDefaultHelpFlag()
	got := Help{Width: 60, Groups: groups}.Usage(run)
	for _, tc := range []struct {
		name string
		in   bool
		text string
	}{
		{"usage first", true, "Usage:\n  prog run [flags]\n\nrun one cell\n\nExamples:\n  prog run\n"},
		{"own flags under the command's name", true, "\nRun:\n      --other "},
		{"groups in order", true, "\nWorkload:\n      --keys int      distinct keys\n      --workers int   concurrent workers\n\nServers:\n"},
		{"output last", true, "\nOutput:\n  -h, --help          help for run\n      --json string   summary file\n"},
		{"the topic named", true, "How it works: prog help measuring\n"},
		{"the account moved out", false, "run measures a cell."},
	} {
		if strings.Contains(got, tc.text) != tc.in {
			t.Errorf("%s: %q in help = %v:\n%s", tc.name, tc.text, !tc.in, got)
		}
	}
	for _, tc := range []struct {
		path    []string
		topic   bool
		example string
	}{
		{[]string{"measuring"}, true, ""},
		{[]string{"formats"}, true, ""},
		{[]string{"run"}, false, "  prog run"},
		{[]string{"help"}, false, "  prog help run"},
		{[]string{"completion", "bash"}, false, "  source <(prog completion bash)"},
	} {
		c, _, err := root.Find(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if IsTopic(c) != tc.topic || c.Example != tc.example {
			t.Errorf("%v: topic %v, example %q; want %v, %q", tc.path, IsTopic(c), c.Example, tc.topic, tc.example)
		}
	}
	rootHelp := Help{Width: 60, Groups: groups}.Usage(root)
	if !strings.Contains(rootHelp, "Help topics (prog help TOPIC):\n  formats ") || !strings.Contains(rootHelp, "  measuring   how run works (prog run)") {
		t.Errorf("root help lists no topics:\n%s", rootHelp)
	}
}

func TestWrap(t *testing.T) {
	root := &cobra.Command{Use: "prog", Long: "one two three"}
	got := Help{Width: 5, Wrap: func(s string, w int) string { return strings.ReplaceAll(s, " ", "\n") }}.Usage(root)
	if !strings.Contains(got, "one\ntwo\nthree") {
		t.Errorf("Wrap not applied:\n%s", got)
	}
}

func TestSuggestions(t *testing.T) {
	root := program(Help{Groups: groups})
	run, _, _ := root.Find([]string{"run"})
	for _, tc := range []struct {
		err, want string
	}{
		{"unknown flag: --wrokers", "unknown flag: --wrokers (did you mean --workers?)"},
		{"unknown flag: --k", "unknown flag: --k (did you mean --keys?)"},
		{"unknown flag: --zzzzzz", "unknown flag: --zzzzzz"},
		{"invalid argument", "invalid argument"},
	} {
		if got := SuggestFlag(run, errors.New(tc.err)).Error(); got != tc.want {
			t.Errorf("SuggestFlag(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
	for _, tc := range []struct {
		cmd  *cobra.Command
		args []string
		want string
	}{
		{root, nil, ""},
		{root, []string{"rnu"}, `unknown command "rnu" for "prog" (did you mean run?)`},
		{root, []string{"zzzz"}, `unknown command "zzzz" for "prog"`},
		{run, []string{"x"}, `prog run: unexpected argument "x"`},
	} {
		got := ""
		if err := NoArgs(tc.cmd, tc.args); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("NoArgs(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"run"}, " (did you mean run?)"},
		{[]string{"a", "b", "c", "d", "e", "f"}, " (did you mean a or b or c or d or e?)"},
	} {
		if got := didYouMean(tc.names); got != tc.want {
			t.Errorf("didYouMean(%v) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

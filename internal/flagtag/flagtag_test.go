package flagtag

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

type upper string

func (u *upper) Set(s string) error { *u = upper(strings.ToUpper(s)); return nil }
func (u *upper) String() string     { return string(*u) }
func (*upper) Type() string         { return "upper" }

type mode string

type inner struct {
	Wait    time.Duration `json:"wait" flag:"in-wait" help:"a duration"`
	Untold  int           `json:"untold"`
	Mode    mode          `json:"mode" flag:"mode" help:"a named string"`
	Ignored struct {
		X int `flag:"x" help:"never bound"`
	} `flag:"-"`
}

type sample struct {
	inner
	Name  string          `json:"name" flag:"name" short:"n" help:"a string"`
	N     int             `json:"n,omitempty" flag:"count" help:"an int"`
	Ratio float64         `json:"ratio" flag:"ratio" help:"a float"`
	On    bool            `json:"on" flag:"on" help:"a bool"`
	List  []string        `json:"list" flag:"list" help:"a slice"`
	Whole []string        `json:"whole" flag:"whole,array" help:"an array"`
	Ints  []int           `json:"ints" flag:"ints" help:"ints"`
	Ds    []time.Duration `json:"ds" flag:"ds" help:"durations"`
	Up    upper           `json:"up" flag:"up" help:"a Value"`
	File  string          `json:"-" flag:"file" help:"not serialised"`
	Group struct {
		G int `json:"g" flag:"g" help:"in a group"`
	} `json:"group" flag:"g-*"`
	Skipped int `json:"skipped" flag:"skipped" help:"left out by Bind"`
	private int
}

// TestBind: every tagged field gets its flag with its value as default,
// setting a flag sets the field, and Flag names it by JSON and Go path.
func TestBind(t *testing.T) {
	s := sample{Name: "a", N: 3, Ratio: 0.5, List: []string{"x"}, Ds: []time.Duration{time.Second}, inner: inner{Wait: time.Millisecond, Mode: "m"}}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	set := New(fs).Bind(&s, "skipped")
	defaults := map[string]string{"in-wait": "1ms", "mode": "m", "name": "a", "count": "3", "ratio": "0.5", "on": "false",
		"list": "[x]", "whole": "[]", "ints": "[]", "ds": "[1s]", "up": "", "file": ""}
	for name, def := range defaults {
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("--%s not registered", name)
			continue
		}
		if f.DefValue != def {
			t.Errorf("--%s default %q, want %q", name, f.DefValue, def)
		}
		if f.Usage == "" {
			t.Errorf("--%s: no help", name)
		}
	}
	for _, absent := range []string{"skipped", "x", "untold"} {
		if fs.Lookup(absent) != nil {
			t.Errorf("--%s registered", absent)
		}
	}
	err := fs.Parse([]string{"-n", "b", "--count", "4", "--ratio", "2", "--on", "--list", "p,q", "--whole", "r,s", "--whole", "t",
		"--ints", "1,2", "--ds", "2s", "--up", "v", "--file", "f", "--in-wait", "2ms", "--mode", "z"})
	if err != nil {
		t.Fatal(err)
	}
	want := sample{Name: "b", N: 4, Ratio: 2, On: true, List: []string{"p", "q"}, Whole: []string{"r,s", "t"}, Ints: []int{1, 2},
		Ds: []time.Duration{2 * time.Second}, Up: "V", File: "f", inner: inner{Wait: 2 * time.Millisecond, Mode: "z"}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("parsed %+v\nwant   %+v", s, want)
	}
	for field, flag := range map[string]string{
		"name": "--name", "Name": "--name", "n": "--count", "wait": "--in-wait", "Wait": "--in-wait", "file": "--file",
		"group": "--g-*", "Group": "--g-*", "skipped": "", "untold": "", "nowhere": "",
	} {
		if got := set.Flag(field); got != flag {
			t.Errorf("Flag(%q) = %q, want %q", field, got, flag)
		}
	}
}

// TestGroupNames: a struct field without a flag tag is named by its
// flags joined, in field order; one with a tag by the tag.
func TestGroupNames(t *testing.T) {
	var c struct {
		A struct {
			X int `json:"x" flag:"ax" help:"x"`
			Y int `json:"y" flag:"ay" help:"y"`
		} `json:"a"`
		B struct {
			X int `json:"x" flag:"bx" help:"x"`
			Y int `json:"y" flag:"by" help:"y"`
		} `json:"b" flag:"by/bx"`
	}
	set := New(pflag.NewFlagSet("t", pflag.ContinueOnError)).Bind(&c)
	if got := set.Flag("a"); got != "--ax/--ay" {
		t.Errorf("a: %q", got)
	}
	if got := set.Flag("b"); got != "--by/--bx" {
		t.Errorf("b: %q", got)
	}
}

// TestBindRefuses: a field without help, or of a type no flag takes, is a
// programming error found at once.
func TestBindRefuses(t *testing.T) {
	for name, ptr := range map[string]any{
		"no help": &struct {
			A int `flag:"a"`
		}{},
		"bad type": &struct {
			A map[string]int `flag:"a" help:"h"`
		}{},
		"not a ptr": struct{}{},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			New(pflag.NewFlagSet("t", pflag.ContinueOnError)).Bind(ptr)
		}()
	}
}

// TestLookup: the first set, in order, that binds any of the fields names
// it (the fields tried in order within a set); none is "".
func TestLookup(t *testing.T) {
	type own struct {
		Workers int `json:"workers" flag:"own-workers" help:"h"`
		Keys    int `json:"keys" flag:"own-keys" help:"h"`
	}
	type base struct {
		Workers int `json:"workers" flag:"workers" help:"h"`
		TTL     int `json:"ttl" flag:"ttl" help:"h"`
	}
	a := New(pflag.NewFlagSet("a", pflag.ContinueOnError)).Bind(&own{})
	b := New(pflag.NewFlagSet("b", pflag.ContinueOnError)).Bind(&base{})
	for _, c := range []struct {
		sets   []*Set
		fields []string
		want   string
	}{
		{[]*Set{a, b}, []string{"workers"}, "--own-workers"},
		{[]*Set{b, a}, []string{"workers"}, "--workers"},
		{[]*Set{a, b}, []string{"base.ttl", "ttl"}, "--ttl"},
		{[]*Set{a, b}, []string{"TTL", "Keys"}, "--own-keys"},
		{[]*Set{a, b}, []string{"rate"}, ""},
		{nil, []string{"workers"}, ""},
	} {
		if got := Lookup(c.sets, c.fields...); got != c.want {
			t.Errorf("Lookup(%d sets, %q) = %q, want %q", len(c.sets), c.fields, got, c.want)
		}
	}
}

// TestField: a bound flag carries the JSON path of its field, so a help
// renderer can group flags by where their fields are.
func TestField(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	New(fs).Bind(&sample{})
	fs.Bool("own", false, "registered by hand")
	for name, want := range map[string]string{"in-wait": "wait", "name": "name", "g": "group.g", "file": "file", "own": ""} {
		if got := Field(fs.Lookup(name)); got != want {
			t.Errorf("Field(--%s) = %q, want %q", name, got, want)
		}
	}
}

// TestValuePlaceholder: a value tag names the flag's value in its help.
func TestValuePlaceholder(t *testing.T) {
	var c struct {
		Out string `flag:"out" value:"DIR" help:"write into DIR"`
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	New(fs).Bind(&c)
	if name, usage := pflag.UnquoteUsage(fs.Lookup("out")); name != "DIR" || usage != "write into DIR" {
		t.Fatalf("placeholder %q, usage %q", name, usage)
	}
	defer func() {
		if recover() == nil {
			t.Error("a value not in the help: no panic")
		}
	}()
	var bad struct {
		Out string `flag:"out" value:"FILE" help:"write into DIR"`
	}
	New(pflag.NewFlagSet("t", pflag.ContinueOnError)).Bind(&bad)
}

type helped struct {
	Name string `flag:"name" help:"static"`
	Kept int    `flag:"kept" help:"the tag's"`
}

func (*helped) FlagHelp(field string) string {
	if field == "Name" {
		return "one of: " + strings.Join([]string{"a", "b"}, ", ")
	}
	return ""
}

// TestHelper: a struct's FlagHelp replaces its fields' help tags where it
// answers, and only there.
func TestHelper(t *testing.T) {
	var c struct{ Inner helped }
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	New(fs).Bind(&c)
	if u := fs.Lookup("name").Usage; u != "one of: a, b" {
		t.Errorf("--name help %q, want FlagHelp's", u)
	}
	if u := fs.Lookup("kept").Usage; u != "the tag's" {
		t.Errorf("--kept help %q, want the tag's", u)
	}
}

// held keeps its settings by key, outside its Go fields, as a registry
// of backends does.
type held struct {
	Own int `json:"own" flag:"own" help:"a field of its own"`
	by  map[string]any
}

func (h *held) FlagGroups() map[string]any { return h.by }

type kSettings struct {
	X int  `json:"x" flag:"k-x" help:"k's x"`
	Y bool `json:"y" flag:"k-y" help:"k's y"`
}

type qSettings struct {
	Z string `json:"z" flag:"q-z" help:"q's z"`
}

// TestGrouper: a Grouper's groups are bound as nested fields under their
// keys: flags set the values their pointers hold, paths name the flags
// and the group, and a skipped group gets no flag.
func TestGrouper(t *testing.T) {
	var c struct {
		D held `json:"d"`
	}
	k, q := &kSettings{X: 7}, &qSettings{Z: "a"}
	c.D.by = map[string]any{"k": k, "q": q}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	set := New(fs).Bind(&c)
	if f := fs.Lookup("k-x"); f == nil || f.DefValue != "7" || Field(f) != "d.k.x" {
		t.Fatalf("--k-x: %+v", f)
	}
	if err := fs.Parse([]string{"--k-x", "3", "--k-y", "--q-z", "b", "--own", "1"}); err != nil {
		t.Fatal(err)
	}
	if *k != (kSettings{X: 3, Y: true}) || q.Z != "b" || c.D.Own != 1 {
		t.Errorf("parsed k %+v, q %+v, own %d", *k, *q, c.D.Own)
	}
	for field, flag := range map[string]string{
		"d.k.x": "--k-x", "D.k.X": "--k-x", "d.k": "--k-x/--k-y", "D.q": "--q-z", "d.own": "--own",
	} {
		if got := set.Flag(field); got != flag {
			t.Errorf("Flag(%q) = %q, want %q", field, got, flag)
		}
	}
	skipped := pflag.NewFlagSet("t", pflag.ContinueOnError)
	New(skipped).Bind(&c, "d.k")
	if skipped.Lookup("k-x") != nil || skipped.Lookup("q-z") == nil {
		t.Errorf("skip d.k: --k-x %v, --q-z %v", skipped.Lookup("k-x"), skipped.Lookup("q-z"))
	}
	c.D.by["q"] = qSettings{}
	defer func() {
		if recover() == nil {
			t.Error("a group holding a struct, not a pointer: no panic")
		}
	}()
	New(pflag.NewFlagSet("t", pflag.ContinueOnError)).Bind(&c)
}

// TestGiven: the fields of the flags given, in the flag set's order; flags
// Bind did not register are left out.
func TestGiven(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"--b", "2", "--a", "x", "--raw"}, []string{"in.a", "in.b"}},
		{[]string{"--raw"}, nil},
	} {
		var c struct {
			In struct {
				A string `json:"a" flag:"a" help:"a"`
				B int    `json:"b" flag:"b" help:"b"`
			} `json:"in"`
		}
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		New(fs).Bind(&c)
		fs.Bool("raw", false, "not bound")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := Given(fs); !slices.Equal(got, tc.want) {
			t.Errorf("Given after %v = %v, want %v", tc.args, got, tc.want)
		}
	}
}

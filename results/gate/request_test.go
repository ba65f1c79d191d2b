package gate

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestRun: a request's thresholds are parsed and its summaries read and
// judged; a bad threshold or path is a field error of its Request field.
func TestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.json")
	if err := src("", 1, run("a", 100, 1000)).Summary.WriteJSON(file); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		set    func(*Request)
		failed bool
		field  string // "" for a verdict
	}{
		{"pass", func(r *Request) { r.Thresholds = []string{"cycles_per_s>50"} }, false, ""},
		{"fail", func(r *Request) { r.Thresholds = []string{"cycles_per_s>500"} }, true, ""},
		{"bad threshold", func(r *Request) { r.Thresholds = []string{"cycles_per_s?5"} }, false, "Thresholds"},
		{"missing baseline", func(r *Request) { r.Baseline = []string{file + ".none"} }, false, "Baseline"},
		{"bad option", func(r *Request) { r.Thresholds, r.Alpha = []string{"cycles_per_s>50"}, 2 }, false, "Alpha"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRequest()
			r.Current = []string{file}
			tc.set(&r)
			v, err := Run(r)
			if tc.field != "" {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != tc.field {
					t.Fatalf("err %v, want a field error of %s", err, tc.field)
				}
				return
			}
			if err != nil || v.Failed != tc.failed {
				t.Fatalf("verdict failed=%v, err %v: want failed=%v", v.Failed, err, tc.failed)
			}
		})
	}
}

// TestRequestValidate: the checks before anything is read, in order; a
// format of table or md (markdown) passes.
func TestRequestValidate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		set      func(*Request)
		field    string // a field error's; "" for none
		is       error
		markdown bool
	}{
		{"threshold", func(r *Request) { r.Thresholds = []string{"violations==0"} }, "", nil, false},
		{"baseline, md", func(r *Request) { r.Baseline, r.Format = []string{"b.json"}, "md" }, "", nil, true},
		{"markdown", func(r *Request) { r.Baseline, r.Format = []string{"b.json"}, "markdown" }, "", nil, true},
		{"empty format", func(r *Request) { r.Baseline, r.Format = []string{"b.json"}, "" }, "", nil, false},
		{"no summaries", func(r *Request) { r.Current, r.Format = nil, "xml" }, "", ErrNoSummaries, false},
		{"bad format", func(r *Request) { r.Format, r.Count = "xml", 0 }, "Format", nil, false},
		{"count 0", func(r *Request) { r.Count, r.Alpha = 0, 2 }, "Count", nil, false},
		{"bad option", func(r *Request) { r.Alpha = 2 }, "Alpha", nil, false},
		{"nothing to check", func(*Request) {}, "", ErrNothingToCheck, false},
		{"until decided", func(r *Request) { r.Current, r.UntilDecided, r.BaseCmd, r.HeadCmd = nil, true, "a", "b" }, "", nil, false},
		{"until decided without a base command", func(r *Request) { r.Current, r.UntilDecided, r.HeadCmd = nil, true, "b" }, "BaseCmd", nil, false},
		{"until decided without a head command", func(r *Request) { r.Current, r.UntilDecided, r.BaseCmd = nil, true, "a" }, "HeadCmd", nil, false},
		{"until decided without a budget", func(r *Request) {
			r.Current, r.UntilDecided, r.BaseCmd, r.HeadCmd, r.Budget = nil, true, "a", "b", 0
		}, "Budget", nil, false},
		{"until decided with summaries", func(r *Request) { r.UntilDecided, r.BaseCmd, r.HeadCmd = true, "a", "b" }, "UntilDecided", nil, false},
		{"a command without until decided", func(r *Request) { r.Thresholds, r.HeadCmd = []string{"violations==0"}, "b" }, "HeadCmd", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRequest()
			r.Current = []string{"s.json"}
			tc.set(&r)
			err := r.Validate()
			var fe *FieldError
			switch {
			case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
				t.Fatalf("error %v, want a field error of %s", err, tc.field)
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Fatalf("error %v, want %v", err, tc.is)
			case tc.field == "" && tc.is == nil && err != nil:
				t.Fatal(err)
			}
			if r.Markdown() != tc.markdown {
				t.Errorf("Markdown %v, want %v", r.Markdown(), tc.markdown)
			}
		})
	}
	if r := NewRequest(); r.Format != "table" || r.Count != 1 {
		t.Errorf("NewRequest: format %q count %d", r.Format, r.Count)
	}
}

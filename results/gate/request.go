package gate

// Request is a gate as a command line gives it: the summaries by path
// (each a summary file or a run directory) and the thresholds as text.
// Tagged fields are the flags of lockbench gate (workloads/flagtag); the
// current summaries are its arguments.
type Request struct {
	Options
	Current    []string
	Thresholds []string `flag:"threshold,array" help:"check METRIC OP VALUE, e.g. 'cycle.p99<2ms' (repeatable)"`
	Baseline   []string `flag:"baseline,array" help:"baseline summary.json or --out DIR (repeatable: repeated runs are samples)"`
	Count      int      `flag:"count" help:"require at least N runs of every run name on each side (medians + Mann-Whitney when N>1)"`
}

// NewRequest is a Request with DefaultOptions and a Count of 1.
func NewRequest() Request { return Request{Options: DefaultOptions(), Count: 1} }

// Run parses r's thresholds (added to its Options'), reads its summaries
// (ReadInput) and judges them (Check). Bad input is a *FieldError of a
// Request field: Thresholds, Current, Baseline, Count or an Options field.
func Run(r Request) (Verdict, error) {
	ts, err := ParseThresholds(r.Thresholds)
	if err != nil {
		return Verdict{}, err
	}
	opt := r.Options
	opt.Thresholds = append(append([]Threshold(nil), opt.Thresholds...), ts...)
	in, err := ReadInput(r.Current, r.Baseline, r.Count)
	if err != nil {
		return Verdict{}, err
	}
	return Check(in, opt)
}

package schema

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/internal/outpath"
)

// Schema names the summary format; outside tools and gates read it.
const Schema = "lockbench/v1"

// Summary is the JSON a run or a compare writes.
type Summary struct {
	Schema      string            `json:"schema"`
	Started     time.Time         `json:"started"`
	Interrupted bool              `json:"interrupted"`
	Host        Host              `json:"host"`
	Versions    map[string]string `json:"versions"`
	// Servers are the servers' own facts (one per master / etcd member).
	Servers []Server        `json:"servers,omitempty"`
	Config  json.RawMessage `json:"config"`
	Runs    []Run           `json:"runs"`
}

// Host is the machine the run was measured on.
type Host struct {
	Hostname string `json:"hostname"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	CPUs     int    `json:"cpus"`
	// CPUModel is /proc/cpuinfo's model name, Kernel the kernel release;
	// "" where they cannot be read.
	CPUModel string `json:"cpu_model,omitempty"`
	Kernel   string `json:"kernel,omitempty"`
}

// Run is one cell: a backend, client, strategy and workload measured for a
// duration.
type Run struct {
	Name    string `json:"name"`
	Backend string `json:"backend"`
	Client  string `json:"client"`
	Mux     string `json:"mux"`
	Masters int    `json:"masters"`
	// Durability is where the lock state was kept, so what a grant
	// survives: "memory ×5", "AOF always ×5", "fsync raft×3", "external"
	// (workloads/lab.Durability).
	Durability string  `json:"durability,omitempty"`
	Workload   string  `json:"workload"`
	Keys       int     `json:"keys"`
	Workers    int     `json:"workers"`
	Rate       float64 `json:"rate"`
	DurationS  float64 `json:"duration_s"`
	// AddedRTTUS is the round trip added to every master (compare --rtt).
	AddedRTTUS float64 `json:"added_rtt_us,omitempty"`
	// DelayRelayUS is the delay line's own relay time per round trip,
	// measured as it started and taken off the delays it plays, so the
	// round trip grows by AddedRTTUS and not by that too; 0 without a line.
	DelayRelayUS float64 `json:"delay_relay_us,omitempty"`
	// MemoryProbeNS is how long one dependent load from memory took just
	// before and after the cell (procstat.MemoryProbe: the median of its
	// samples, in the probing thread's CPU time): the state of the
	// machine's caches and memory bus, which other tenants of a shared
	// host contend for. Cycles/s falls as it rises while the cell's own
	// code is the same; 0 where it could not be measured.
	MemoryProbeNS float64 `json:"memory_probe_ns,omitempty"`
	// Repeat is the round (1…N) of compare --repeat N that measured the
	// run; runs of one name and different rounds are samples of one cell
	// (results/stats). 0: measured once.
	Repeat      int  `json:"repeat,omitempty"`
	Interrupted bool `json:"interrupted"`
	// CutShort says why an interrupted run ended before its window, when
	// no signal ended it: a generator of several lost, this one cut off
	// from the run, the coordination store lost, a threshold broken.
	CutShort string `json:"cut_short,omitempty"`
	// NothingMeasured: interrupted before the measured window began (in
	// the warmup); counts are zero and no figure is a result.
	NothingMeasured bool `json:"nothing_measured,omitempty"`

	Throughput Throughput             `json:"throughput"`
	LatencyUS  map[string]Percentiles `json:"latency_us"`
	// ServiceUS is the uncorrected service time (from the actual start) of
	// open-loop runs; absent in a closed loop, where it equals LatencyUS.
	ServiceUS         map[string]Percentiles `json:"service_us,omitempty"`
	Counts            Counts                 `json:"counts"`
	SplitBrainRate    float64                `json:"split_brain_rate"`
	RetriesPerAcquire float64                `json:"retries_per_acquire"`
	// AllocsPerCycle is heap allocations per completed cycle in the whole
	// process (driver, client library and harness) during the measured window.
	AllocsPerCycle float64 `json:"allocs_per_cycle"`
	// Cost is CPU, syscalls and allocations per cycle over the measured
	// window (cost.go); nil when no cycle completed.
	Cost *Cost `json:"cost,omitempty"`
	// Fairness is Jain's index of per-worker acquisitions (the referee's).
	Fairness float64 `json:"fairness"`
	// ValidityMarginUS is the validity left at grant time (valid-until −
	// granted), from the referee.
	ValidityMarginUS *Percentiles `json:"validity_margin_us,omitempty"`
	// MissedStarts: open-loop cycles that began over 1 ms after their
	// intended start, or never began (no worker was free).
	MissedStarts int64 `json:"missed_starts"`
	// ErrorsByMaster explains the errors and timeouts: per master that had
	// any, its most frequent error messages with counts and whether it
	// stopped answering (errors.go).
	ErrorsByMaster []MasterErrors `json:"errors_by_master,omitempty"`
	// Stalls are the stretches of the window in which no lock was granted
	// for longer than the stall threshold (stall.go); Stalled() says
	// whether there were any.
	Stalls []Stall `json:"stalls,omitempty"`
	// Unfinished are the cycles in flight when the window ended, with how
	// long they had waited (unfinished.go); nil when none were.
	Unfinished *Unfinished `json:"unfinished,omitempty"`

	// Typed measures, written under "extra" with the keys they have
	// always had (run_extra.go); nil or zero: absent.

	// Referee is the referee's verdicts in detail ("referee").
	Referee *RefereeReport `json:"-"`
	// Pacing is the open loop's schedule keeping ("pacing").
	Pacing *Pacing `json:"-"`
	// Faults is what the faults of the run did ("faults").
	Faults *FaultReport `json:"-"`
	// Scenario is a scenario's outcome ("scenario").
	Scenario *ScenarioOutcome `json:"-"`
	// VsSequential is throughput over the sequential row of the same client,
	// workload and masters in a compare ("vs_sequential").
	VsSequential *float64 `json:"-"`
	// CeilingCyclesPerS is the redis-benchmark ceiling on the run's masters
	// ("ceiling_cycles_per_s"), OfCeiling the run's fraction of it
	// ("of_ceiling"), CeilingCost the ceiling's cost per cycle
	// ("ceiling_cost"): compare --ceiling.
	CeilingCyclesPerS *float64 `json:"-"`
	OfCeiling         *float64 `json:"-"`
	CeilingCost       *Cost    `json:"-"`
	// FloorCyclesPerS is the bare client library's floor on the run's
	// masters with the run's workers ("floor_cycles_per_s"), OfFloor the
	// run's fraction of it ("of_floor"), FloorCost the floor's cost per
	// cycle ("floor_cost"): compare --ceiling, for the clients that have
	// one.
	FloorCyclesPerS *float64 `json:"-"`
	OfFloor         *float64 `json:"-"`
	FloorCost       *Cost    `json:"-"`
	// MergedFrom is how many runs a merged run was made of ("merged_from"),
	// MergedIDs their identities ("merged_ids"), Window the span they were
	// all measuring ("window").
	MergedFrom int      `json:"-"`
	MergedIDs  []string `json:"-"`
	Window     *Window  `json:"-"`

	// Extra holds any other measure under "extra" (hand-added or from a
	// newer lockbench), kept as read.
	Extra map[string]any `json:"extra,omitempty"`
}

// Throughput is per second of measured time.
type Throughput struct {
	CyclesPerS   float64 `json:"cycles_per_s"`
	AttemptsPerS float64 `json:"attempts_per_s"`
}

// Counts close: attempts = acquired + busy + split_brain + timeouts + errors.
type Counts struct {
	Attempts      int64 `json:"attempts"`
	Acquired      int64 `json:"acquired"`
	Busy          int64 `json:"busy"`
	SplitBrain    int64 `json:"split_brain"`
	Timeouts      int64 `json:"timeouts"`
	Errors        int64 `json:"errors"`
	Violations    int64 `json:"violations"`
	StaleOverlaps int64 `json:"stale_overlaps"` // used past validity while another held the key: not a violation
	Cycles        int64 `json:"cycles"`         // acquired and released
	GaveUp        int64 `json:"gave_up"`        // cycles that ran out of --tries
	ReleaseErrors int64 `json:"release_errors"` // releases that failed or found the lock gone
}

// Rates are the run's derived shares of c: split_brain_rate =
// split_brain / (busy + split_brain), retries_per_acquire = (attempts −
// acquired) / acquired; 0 where the denominator is.
func (c Counts) Rates() (splitBrain, retriesPerAcquire float64) {
	if failed := c.Busy + c.SplitBrain; failed > 0 {
		splitBrain = float64(c.SplitBrain) / float64(failed)
	}
	if c.Acquired > 0 {
		retriesPerAcquire = float64(c.Attempts-c.Acquired) / float64(c.Acquired)
	}
	return splitBrain, retriesPerAcquire
}

// Plus is the sum of c and d, count by count (rounds, merged runs).
func (c Counts) Plus(d Counts) Counts {
	return Counts{
		Attempts: c.Attempts + d.Attempts, Acquired: c.Acquired + d.Acquired, Busy: c.Busy + d.Busy,
		SplitBrain: c.SplitBrain + d.SplitBrain, Timeouts: c.Timeouts + d.Timeouts, Errors: c.Errors + d.Errors,
		Violations: c.Violations + d.Violations, StaleOverlaps: c.StaleOverlaps + d.StaleOverlaps,
		Cycles: c.Cycles + d.Cycles, GaveUp: c.GaveUp + d.GaveUp, ReleaseErrors: c.ReleaseErrors + d.ReleaseErrors,
	}
}

// NewSummary starts a summary with host and library versions filled in.
func NewSummary(started time.Time, config any) (*Summary, error) {
	raw, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("results: config: %w", err)
	}
	host, _ := os.Hostname()
	return &Summary{
		Schema: Schema, Started: started.UTC(), // to the ns: part of a run's identity (RunID)
		Host: Host{Hostname: host, OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(),
			CPUModel: cpuModel(), Kernel: kernelRelease()},
		Versions: versions(), Config: raw,
	}, nil
}

// versions lists Go and the libraries that shape the numbers.
func versions() map[string]string {
	v := map[string]string{"go": runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v["lockbench"] = bi.Main.Version
	names := map[string]string{
		"github.com/redis/go-redis/v9":            "go-redis",
		"github.com/redis/rueidis":                "rueidis",
		"go.etcd.io/etcd/client/v3":               "etcd-client",
		"go.etcd.io/etcd/server/v3":               "etcd-server",
		"github.com/HdrHistogram/hdrhistogram-go": "hdrhistogram-go",
		"github.com/go-redsync/redsync/v4":        "redsync",
	}
	for _, d := range bi.Deps {
		if n, ok := names[d.Path]; ok {
			v[n] = d.Version
		}
	}
	return v
}

// WriteJSON writes the summary to path ("-" is os.Stdout) atomically: a
// temp file renamed into place, so a reader never sees half a summary.
func (s *Summary) WriteJSON(path string) error {
	return s.WriteJSONTo(os.Stdout, path)
}

// WriteJSONTo is WriteJSON with "-" meaning stdout (a command's writer).
func (s *Summary) WriteJSONTo(stdout io.Writer, path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err := stdout.Write(b)
		return err
	}
	return WriteFileAtomic(path, b)
}

// WriteFileAtomic writes b to path as every lockbench output file is
// written (outpath.WriteFile): a temp file beside the target renamed into
// place, through symlinks (which stay links); nothing left on failure.
func WriteFileAtomic(path string, b []byte) error { return outpath.WriteFile(path, b) }

// ReadSummary loads a summary JSON.
func ReadSummary(path string) (*Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := parseSummary(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// parseSummary reads a summary's JSON, refusing one of another schema.
func parseSummary(b []byte) (*Summary, error) {
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(s.Schema, "lockbench/") {
		return nil, fmt.Errorf("not a lockbench summary (schema %q)", s.Schema)
	}
	return &s, nil
}

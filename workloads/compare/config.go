package compare

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Config is a matrix of cells measured on the same servers with the same
// durations. It is written into the summary. The zero value is the
// default matrix (DefaultConfig): every empty field takes its default.
type Config struct {
	// Base is every cell's config before the matrix sets its client, mux,
	// workload, masters count and round trip (zero: lab.DefaultConfig with
	// DefaultDuration and DefaultWarmup).
	Base      lab.Config `json:"base"`
	Clients   []string   `json:"clients" flag:"clients" help:"Redis client libraries to compare"`
	Muxes     []string   `json:"muxes" flag:"muxes" help:"strategies to compare (sequential is the ratio baseline)"`
	Workloads []string   `json:"workloads" flag:"workloads" help:"workloads to compare"`
	// Masters are local master counts; the masters are restarted for each.
	// With external masters (Base.Topology.RedisAddrs) they are the count.
	Masters []int `json:"masters" flag:"masters" help:"local master counts; the masters are restarted for each count"`
	// Ceiling measures the redis-benchmark ceiling on each group's masters.
	Ceiling bool `json:"ceiling" flag:"ceiling" help:"measure the redis-benchmark ceiling and each client's bare-library floor on the same masters every round, and show each row's fraction of them"`
	// RTTs reruns the matrix with each round trip (± its jitter) added to
	// every master by a delay line in a process of its own (0: direct);
	// ranking shows how the order changes with distance.
	RTTs distances `json:"rtts,omitempty" flag:"rtt" help:"rerun the matrix with each round trip added to every master by a delay line, e.g. 0,250us,1ms or 1ms±100us (jitter), and rank the cells per round trip"`
	// ClientDefaults adds, beside every auto cell, the same cell with the
	// client libraries' own defaults (/defaults rows).
	ClientDefaults bool `json:"client_defaults_rows,omitempty" flag:"defaults-rows" help:"add each auto cell again with the client libraries' own defaults (rows named .../auto/defaults)"`
	// Baselines are rows beside the matrix: etcd modes and peer libraries
	// (BaselineNames, or "all").
	Baselines []string `json:"baselines,omitempty" flag:"baselines" help:"rows beside the matrix (FlagHelp lists them)"`
	// Repeat is how many rounds measure the matrix (0: 1). Each round
	// measures every cell once, on the same servers, in an order that
	// alternates from round to round (RoundOrder); a table row is the
	// median of its cell's rounds, and every round is a run of its own
	// (schema.Run.Repeat) that the gate reads as a sample.
	Repeat int `json:"repeat" flag:"repeat" help:"measure the matrix N times in alternating order; rows show medians, the JSON every round"`
	// Check, when set, completes and validates each cell after the
	// matrix's own checks, before any server starts (the CLI's flag
	// checks); its errors are returned as they are.
	Check func(*lab.Config) error `json:"-"`
}

// The default matrix.
var (
	defaultClients   = []string{"goredis", "rueidis"}
	defaultMuxes     = []string{"sequential", "fanout", "pipeline", "auto"}
	defaultWorkloads = []string{"uncontended", "contended"}
	defaultMasters   = []int{5}
)

// Each cell's default durations: long enough for a stable rate, short
// enough for a 16-cell matrix.
const (
	defaultDuration = 5 * time.Second
	defaultWarmup   = time.Second
)

// DefaultConfig is the default matrix: both clients × every mux × both
// workloads on 5 local masters, 5 s per cell after 1 s of warmup.
func DefaultConfig() Config {
	c := Config{}
	c.defaults()
	return c
}

// defaults fills every empty field.
func (c *Config) defaults() {
	if reflect.ValueOf(c.Base).IsZero() {
		c.Base = lab.DefaultConfig()
		c.Base.Workload.Duration, c.Base.Workload.Warmup = defaultDuration, defaultWarmup
	}
	if c.Clients == nil {
		c.Clients = append([]string(nil), defaultClients...)
	}
	if c.Muxes == nil {
		c.Muxes = append([]string(nil), defaultMuxes...)
	}
	if c.Workloads == nil {
		c.Workloads = append([]string(nil), defaultWorkloads...)
	}
	if c.Masters == nil {
		c.Masters = append([]int(nil), defaultMasters...)
	}
	if c.Repeat == 0 {
		c.Repeat = 1
	}
}

// fieldError is bad input in one Config field, named by its Go field path
// ("Clients", "Base.Driver.Backend"): the CLI names its flag.
type fieldError = fielderr.Error

// MaxRepeat bounds Repeat: a thousand rounds of the smallest matrix is
// hours, and the plan is made before the first.
const MaxRepeat = 1000

func fieldErr(field string, value any, format string, a ...any) error {
	return fielderr.Invalid(field, value, format, a...)
}

// singles are a cell's fields that a matrix takes as lists instead, by
// their JSON path in the cell, and the list of each (a Go field path).
var singles = []struct{ field, list string }{
	{"driver.client", "Clients"}, {"driver.mux", "Muxes"}, {"workload.workload", "Workloads"},
}

// CheckGiven refuses, before the plan is made, what the given fields ask
// that c cannot do: a cell's single client, mux or workload (the matrix
// takes lists), Repeat given as 0 (c's zero value is its default, 1), and
// Masters with external masters (they are the topology). given are JSON
// paths as Plan.CheckGiven takes them: a cell's ("driver.client") and
// c's own ("repeat").
func (c Config) CheckGiven(given []string) error {
	for _, s := range singles {
		if slices.Contains(given, s.field) {
			return &fielderr.Error{Field: s.field, Err: errors.New("is one cell's"), Hint: "compare takes %s, a list", HintField: s.list}
		}
	}
	if slices.Contains(given, "repeat") && c.Repeat == 0 {
		return fieldErr("Repeat", 0, "must be at least 1")
	}
	if slices.Contains(given, "masters") && len(c.Base.Topology.RedisAddrs) > 0 {
		counts := make([]string, len(c.Masters))
		for i, m := range c.Masters {
			counts[i] = fmt.Sprint(m)
		}
		return &fielderr.Error{Field: "Masters", Value: strings.Join(counts, ","), Err: errors.New("the external masters are the topology"),
			Hint: "not with %s", HintField: "Base.Topology.RedisAddrs"}
	}
	return nil
}

package generators

import (
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/redact"
)

// Config makes a process one of several generators of a run. Errors name
// its fields; the CLI names the flags.
type Config struct {
	// Generators is how many processes make the run; 0 or 1: this one alone.
	Generators int `json:"generators" flag:"generators" help:"make this process one of N load generators of one run (same command on every one; see docs/generators.md)"`
	// Index is this process's place, 0…Generators−1; −1 takes
	// $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's).
	Index int `json:"-" flag:"generator-index" help:"this generator's index 0..N-1 (default: $JOB_COMPLETION_INDEX)"`
	// Coord are the etcd endpoints every generator reaches.
	Coord []string `json:"-" flag:"coord" help:"etcd endpoints (host:port,...) the generators coordinate through; not the servers under test"`
	// CoordUser is the coordination etcd's user, when it has auth on; the
	// password comes from $LOCKBENCH_COORD_PASSWORD, never a flag.
	CoordUser string `json:"-" flag:"coord-user" help:"user of the coordination etcd, when it has auth on (password from $LOCKBENCH_COORD_PASSWORD)"`
	// CoordPassword is CoordUser's password (from CoordPasswordEnv).
	CoordPassword string `json:"-"`
	// CoordCACert, CoordCert and CoordKey reach a coordination etcd over
	// TLS (etcdctl's --cacert/--cert/--key); any of them turns TLS on.
	CoordCACert string `json:"-" flag:"coord-cacert" help:"coordination etcd over TLS: CA certificates to trust (PEM)"`
	CoordCert   string `json:"-" flag:"coord-cert" help:"coordination etcd over TLS: client certificate (PEM)"`
	CoordKey    string `json:"-" flag:"coord-key" help:"coordination etcd over TLS: client certificate's key (PEM)"`
	// Prefix keeps runs sharing one etcd apart.
	Prefix string `json:"-" flag:"coord-prefix" help:"key prefix of this run in the coordination etcd (runs at once need different ones)"`
	// JoinTimeout bounds the wait for every generator to reach the start.
	JoinTimeout time.Duration `json:"join_timeout" flag:"coord-timeout" help:"how long the generators wait for each other at the start"`
	// Thresholds are gate thresholds judged on the merged result; latency
	// upper bounds are also judged live, on the merged histograms.
	Thresholds []string `json:"thresholds,omitempty" flag:"threshold,array" help:"with --generators: a gate threshold judged on the merged run (repeatable); latency upper bounds such as 'cycle.p99<2ms' abort every generator as soon as the merged histogram breaks them"`
}

// DefaultConfig is one process alone; as a generator, its index from the
// environment and two minutes to wait for the others.
func DefaultConfig() Config {
	return Config{Index: -1, Prefix: "lockbench", JoinTimeout: 2 * time.Minute}
}

// MaxGenerators bounds Generators: each generator holds keys, a watch
// and a result in the coordination store, and generator 0 merges them
// all.
const MaxGenerators = 1000

// CoordPasswordEnv holds the coordination etcd user's password.
const CoordPasswordEnv = "LOCKBENCH_COORD_PASSWORD"

// IndexEnv is the variable a Kubernetes Indexed Job sets in each pod.
const IndexEnv = "JOB_COMPLETION_INDEX"

// On: this process is one of several generators.
func (c Config) On() bool { return c.Generators > 1 }

// CheckGiven refuses a negative Index among the given fields (JSON paths
// of the flags given, "index"): Resolve reads a negative Index as not
// given (take it from the environment), which -1 typed as such is not.
func (c Config) CheckGiven(given []string) error {
	if slices.Contains(given, "index") && c.Index < 0 {
		return fielderr.Invalid("Index", c.Index, "negative; must be 0 or more")
	}
	return nil
}

// Resolve takes Index from $JOB_COMPLETION_INDEX when unset and checks
// the config: a *fielderr.Error naming the field.
func (c *Config) Resolve() error {
	if c.Generators < 0 || c.Generators > MaxGenerators {
		return fielderr.Invalid("Generators", c.Generators, "must be 0 to %d", MaxGenerators)
	}
	if !c.On() {
		if c.Index > 0 || len(c.Coord) > 0 {
			return fielderr.Invalid("Generators", c.Generators, "is needed (at least 2) with an index or a coordination store")
		}
		return nil
	}
	if c.Index < -1 {
		return fielderr.Invalid("Index", c.Index, "negative; must be 0 or more (below %d)", c.Generators)
	}
	if c.Index < 0 {
		env, ok := os.LookupEnv(IndexEnv)
		if !ok {
			return fielderr.Invalid("Index", c.Index, "not given and $%s is not set", IndexEnv)
		}
		i, err := strconv.Atoi(strings.TrimSpace(env))
		if err != nil {
			return fielderr.Invalid("Index", env, "$%s is not a number", IndexEnv)
		}
		c.Index = i
	}
	switch {
	case c.Index >= c.Generators:
		return fielderr.Invalid("Index", c.Index, "must be below %d generators", c.Generators)
	case len(c.Coord) == 0:
		return fielderr.Invalid("Coord", "", "the generators need an etcd they all reach")
	case c.Prefix == "" || strings.Contains(c.Prefix, "/"):
		return fielderr.Invalid("Prefix", c.Prefix, "must be a non-empty name without '/'")
	case c.JoinTimeout <= 0:
		return fielderr.Invalid("JoinTimeout", c.JoinTimeout, "must be positive")
	}
	for _, e := range c.Coord {
		if err := checkCoord(e); err != nil {
			return fielderr.Invalid("Coord", e, "%v", err)
		}
	}
	if (c.CoordCert == "") != (c.CoordKey == "") {
		return fielderr.Invalid("CoordCert", c.CoordCert, "goes with CoordKey (%q): give both or neither", c.CoordKey)
	}
	for _, f := range []struct{ field, path string }{{"CoordCACert", c.CoordCACert}, {"CoordCert", c.CoordCert}, {"CoordKey", c.CoordKey}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fielderr.Invalid(f.field, f.path, "not readable: %v", errors.Unwrap(err))
		}
	}
	if c.CoordUser != "" && c.CoordPassword == "" {
		c.CoordPassword = os.Getenv(CoordPasswordEnv)
		if c.CoordPassword == "" {
			return fielderr.Invalid("CoordUser", c.CoordUser, "set its password in $%s", CoordPasswordEnv)
		}
	}
	redact.Add(c.CoordPassword)
	return nil
}

// checkCoord checks one coordination endpoint: [http(s)://]host:port,
// without credentials (the user is CoordUser, the password comes from
// CoordPasswordEnv).
func checkCoord(e string) error {
	hp := strings.TrimPrefix(strings.TrimPrefix(e, "https://"), "http://")
	if strings.Contains(hp, "@") {
		return fmt.Errorf("credentials in an endpoint are not read: give the user apart and the password in $%s", CoordPasswordEnv)
	}
	host, port, err := net.SplitHostPort(hp)
	if err != nil || host == "" {
		return errors.New("want host:port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %q: want 1 to 65535", port)
	}
	return nil
}

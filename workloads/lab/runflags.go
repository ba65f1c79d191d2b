package lab

import (
	"errors"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/output"
)

// BindFlags registers r's flags, but those of the fields under skip (JSON
// paths), on fs: `lockbench run`'s flags, for a command of one's own.
func BindFlags(fs *pflag.FlagSet, r *Run, skip ...string) *flagtag.Set {
	set := flagtag.New(fs).Bind(r, skip...)
	if f := fs.Lookup("format"); f != nil {
		f.Usage = output.FormatHelp() // the registered formats
	}
	return set
}

// runFlags names the flag of every Run field (Config's among them), for
// errors found outside a command's own flag set.
var runFlags = sync.OnceValue(func() *flagtag.Set {
	return BindFlags(pflag.NewFlagSet("fields", pflag.ContinueOnError), &Run{})
})

// rttFields are the cell's fields the --rtt flag sets (RTTFlag).
var rttFields = map[string]bool{"rtt": true, "rtt_jitter": true}

// Flag names the flag that sets a config field, from the field's path as
// a library names it (JSON "workload.retry_delay" or Go
// "Base.Topology.RedisAddrs"; the "base" of compare's and sweep's configs
// is run's cell): in sets first, then among run's flags. A field no flag
// sets is named as it is.
func Flag(field string, sets ...*flagtag.Set) string {
	cell := strings.TrimPrefix(strings.TrimPrefix(field, "base."), "Base.")
	if name := flagtag.Lookup(append(sets, runFlags()), field, cell); name != "" {
		return name
	}
	if rttFields[cell] {
		return "--rtt"
	}
	return field
}

// BadInput is a library's field error as bad input naming the flag
// (Flag); other errors are bad input as they are.
func BadInput(err error, sets ...*flagtag.Set) error {
	var fe *fielderr.Error
	if errors.As(err, &fe) {
		return exit.Usagef("%s", fe.Name(func(f string) string { return Flag(f, sets...) }))
	}
	if errors.As(err, new(exit.UsageError)) {
		return err
	}
	return exit.UsageError{Err: err}
}

// FlagsNamed is err's message with the config field of a field error in
// its chain named by its flag (Flag), for an error that reached the end of
// a command without passing BadInput (wrapped by a compare's cell).
func FlagsNamed(err error) string {
	msg := err.Error()
	var fe *fielderr.Error
	if errors.As(err, &fe) {
		msg = strings.Replace(msg, fe.Error(), fe.Name(func(f string) string { return Flag(f) }), 1)
	}
	return msg
}

// OutputError names the flag of a path that cannot be used or written
// (an *output.Error of an output, or of an input given by flag); other
// destinations (a command's positional inputs) are named as they are.
func OutputError(err error) error {
	var e *output.Error
	if !errors.As(err, &e) || destName(e.Dest) == e.Dest {
		return err
	}
	return e.Named(destName)
}

// destName is a destination as the user gave it: the flag of an output
// or of an input's field (Config.Inputs), or as it is (the word for
// positional inputs).
func destName(dest string) string {
	switch dest {
	case "json", "out", "cpuprofile", "html":
		return "--" + dest
	}
	return Flag(dest)
}

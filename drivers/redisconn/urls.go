package redisconn

import (
	"encoding/csv"
	"strings"

	"github.com/lockbench/lockbench/results/redact"
)

// URLs are masters as a command line gives them (--redis): comma-separated
// like pflag's string slices (CSV, so a password with a comma can be
// quoted), but an empty or blank entry is kept for validation to refuse
// by name (a string slice drops --redis "" and would silently start local
// masters instead), a value never fails to set (a flag package would print
// the raw value, password and all), and the list shows itself redacted.
// *URLs is a pflag.Value.
type URLs []string

// Set appends the entries of s.
func (u *URLs) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		*u = append(*u, s)
		return nil
	}
	if strings.ContainsAny(s, "\r\n") {
		// csv would read the first line alone and drop the masters after
		// it: keep the value whole for Parse to refuse by name.
		*u = append(*u, s)
		return nil
	}
	rec, err := csv.NewReader(strings.NewReader(s)).Read()
	if err != nil { // a stray quote in a password: keep the value to refuse it by name
		rec = strings.Split(s, ",")
	}
	*u = append(*u, rec...)
	return nil
}

// String is the list with every password masked.
func (u *URLs) String() string {
	if u == nil {
		return ""
	}
	out := make([]string, len(*u))
	for i, e := range *u {
		out[i] = redact.String(e)
	}
	return strings.Join(out, ",")
}

// Type names the flag's value in help.
func (*URLs) Type() string { return "urls" }

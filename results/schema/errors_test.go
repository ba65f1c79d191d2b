package schema

import "testing"

func TestTopError(t *testing.T) {
	for _, c := range []struct {
		name string
		errs []MasterErrors
		want string
	}{
		{"none", nil, ""},
		{"one master", []MasterErrors{{Messages: []ErrorCount{{Message: "a", Count: 1}, {Message: "b", Count: 3}}}}, "b"},
		{"across masters", []MasterErrors{{Messages: []ErrorCount{{Message: "a", Count: 2}}}, {Messages: []ErrorCount{{Message: "timeout", Count: 5}, {Message: "c", Count: 1}}}}, "timeout"},
	} {
		if got := (Run{ErrorsByMaster: c.errs}).TopError(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestMostlyFailed(t *testing.T) {
	for _, c := range []struct {
		counts Counts
		want   bool
	}{
		{Counts{}, false},
		{Counts{Attempts: 10, Errors: 5}, false},
		{Counts{Attempts: 10, Errors: 3, Timeouts: 3}, true},
		{Counts{Attempts: 10, Timeouts: 6}, true},
	} {
		if got := c.counts.MostlyFailed(); got != c.want {
			t.Errorf("%+v: %v, want %v", c.counts, got, c.want)
		}
	}
}

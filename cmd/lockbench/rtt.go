package main

import (
	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/workloads/lab"
)

// rttFlag is run's --rtt: the cell's RTT and RTTJitter from one value,
// "1ms" or "1ms±100us", as compare's --rtt takes each of its values.
type rttFlag struct{ c *lab.Config }

func (f rttFlag) String() string {
	if f.c == nil {
		return "0s"
	}
	return delayline.Distance{RTT: f.c.RTT, Jitter: f.c.RTTJitter}.String()
}

func (f rttFlag) Set(s string) error {
	d, err := delayline.ParseDistance(s)
	if err != nil {
		return err
	}
	f.c.RTT, f.c.RTTJitter = d.RTT, d.Jitter
	return nil
}

func (rttFlag) Type() string { return "duration" }

// rttHelp is run's --rtt help.
const rttHelp = "round trip added to every master by a delay line in a process of its own, e.g. 1ms or 1ms±100us (jitter)"

// rttFields are the cell's fields --rtt sets (lab.Config's, bound by hand).
var rttFields = map[string]bool{"rtt": true, "rtt_jitter": true}

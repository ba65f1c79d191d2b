package procstat

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// MachineCPU is one reading of the whole machine's CPU time (/proc/stat's
// cpu line, in clock ticks): every process's, lockbench's and its
// servers' and anyone else's. Two readings tell how busy the machine was
// between them, which says whether a rate was limited by the network
// (the Little's-law bound) or by the CPU.
type MachineCPU struct {
	Busy, Total uint64
	OK          bool
}

// ReadMachineCPU reads /proc/stat; OK is false where it cannot be read.
func ReadMachineCPU() MachineCPU {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return MachineCPU{}
	}
	m, err := parseMachineCPU(b)
	if err != nil {
		return MachineCPU{}
	}
	return m
}

func parseMachineCPU(b []byte) (MachineCPU, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 5 || string(f[0]) != "cpu" {
		return MachineCPU{}, fmt.Errorf("/proc/stat: no cpu line")
	}
	var m MachineCPU
	for i, s := range f[1:] {
		v, err := strconv.ParseUint(string(s), 10, 64)
		if err != nil {
			return MachineCPU{}, fmt.Errorf("/proc/stat: %w", err)
		}
		if i >= 8 { // guest and guest_nice are already in user and nice
			break
		}
		m.Total += v
		if i != 3 && i != 4 { // idle, iowait
			m.Busy += v
		}
	}
	m.OK = true
	return m, nil
}

// BusyShare is the share of all cores busy from a to b (0 to 1); -1 when
// either reading failed or no time passed.
func BusyShare(a, b MachineCPU) float64 {
	if !a.OK || !b.OK || b.Total <= a.Total {
		return -1
	}
	return float64(b.Busy-a.Busy) / float64(b.Total-a.Total)
}

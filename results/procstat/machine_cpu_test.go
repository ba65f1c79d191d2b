package procstat

import "testing"

func TestParseMachineCPU(t *testing.T) {
	m, err := parseMachineCPU([]byte("cpu  100 5 50 800 40 1 2 3 7 0\ncpu0 1 2 3 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	// busy: user+nice+system+irq+softirq+steal = 161; total adds idle+iowait
	if m.Busy != 161 || m.Total != 1001 || !m.OK {
		t.Errorf("%+v: want busy 161 of 1001", m)
	}
	if _, err := parseMachineCPU([]byte("intr 1 2 3\n")); err == nil {
		t.Error("no cpu line: no error")
	}
	a, b := MachineCPU{Busy: 100, Total: 1000, OK: true}, MachineCPU{Busy: 400, Total: 1400, OK: true}
	if s := BusyShare(a, b); s != 0.75 {
		t.Errorf("BusyShare %v, want 0.75", s)
	}
	if s := BusyShare(a, MachineCPU{}); s != -1 {
		t.Errorf("BusyShare of a failed reading %v, want -1", s)
	}
}

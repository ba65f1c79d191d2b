package faults

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	cases := []struct {
		spec    string
		want    Fault // Spec filled in by the test
		wantErr string
	}{
		{spec: "kill:masters=3:at=5s", want: Fault{Kind: kindKill, Masters: []int{3}, At: dur{D: 5 * time.Second}, Restart: restartImmediate}},
		{spec: "kill:masters=1,2,3:at=1s:restart=delayed", want: Fault{Kind: kindKill, Masters: []int{1, 2, 3}, At: dur{D: time.Second}, Restart: restartDelayed, Delay: dur{TTL: true, D: time.Second}}},
		{spec: "kill:masters=1:restart=delayed:delay=ttl-500ms", want: Fault{Kind: kindKill, Masters: []int{1}, Restart: restartDelayed, Delay: dur{TTL: true, D: -500 * time.Millisecond}}},
		{spec: "kill:masters=2:restart=never", want: Fault{Kind: kindKill, Masters: []int{2}, Restart: restartNever}},
		{spec: "stop:masters=1:at=5s:for=2s", want: Fault{Kind: stop, Masters: []int{1}, At: dur{D: 5 * time.Second}, For: dur{D: 2 * time.Second}}},
		{spec: "stop:masters=1:for=ttl", want: Fault{Kind: stop, Masters: []int{1}, For: dur{TTL: true}}},
		{spec: "latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s", want: Fault{Kind: Latency, Masters: []int{1, 2}, MS: 20, Jitter: 5, At: dur{D: 5 * time.Second}, For: dur{D: 10 * time.Second}}},
		{spec: "partition:masters=1,2:at=5s:for=3s", want: Fault{Kind: Partition, Masters: []int{1, 2}, At: dur{D: 5 * time.Second}, For: dur{D: 3 * time.Second}}},
		{spec: "reset:masters=4", want: Fault{Kind: Reset, Masters: []int{4}}},
		{spec: "drop-release:at=2s", want: Fault{Kind: DropRelease, At: dur{D: 2 * time.Second}}},
		{spec: "drop-release", want: Fault{Kind: DropRelease}},
		{spec: "drop-release:masters=1", wantErr: "does not apply"},
		{spec: "drop-release:at=1s:for=1s", wantErr: "does not apply"},

		{spec: "explode:masters=1", wantErr: "unknown kind"},
		{spec: "kill:at=1s", wantErr: "masters=N"},
		{spec: "kill:masters=0", wantErr: "1-based"},
		{spec: "kill:masters=1,1", wantErr: "twice"},
		{spec: "kill:masters=a", wantErr: "1-based"},
		{spec: "kill:masters=1:restart=sometimes", wantErr: "immediate, delayed or never"},
		{spec: "kill:masters=1:delay=1s", wantErr: "delay needs restart=delayed"},
		{spec: "kill:masters=1:for=1s", wantErr: "does not apply"},
		{spec: "kill:masters=1:at=1s:at=2s", wantErr: "given twice"},
		{spec: "kill:masters=1:at=-1s", wantErr: "duration"},
		{spec: "kill:masters=1:at=soon", wantErr: "duration"},
		{spec: "kill:masters=1:at=ttl*2", wantErr: "ttl+D"},
		{spec: "kill:masters=1:at", wantErr: "key=value"},
		{spec: "stop:masters=1", wantErr: "stop needs for="},
		{spec: "latency:masters=1", wantErr: "latency needs ms="},
		{spec: "latency:masters=1:ms=-3", wantErr: "milliseconds"},
		{spec: "partition:masters=1:ms=3", wantErr: "does not apply"},
		{spec: "partition:masters=1:bogus=3", wantErr: "unknown key"},
		{spec: "pause-client:workers=1:for=ttl+1s", want: Fault{Kind: PauseClient, Workers: []int{1}, For: dur{TTL: true, D: time.Second}}},
		{spec: "pause-client:workers=1,3:at=2s:for=3s", want: Fault{Kind: PauseClient, Workers: []int{1, 3}, At: dur{D: 2 * time.Second}, For: dur{D: 3 * time.Second}}},
		{spec: "clock-jump:masters=2:+5s", want: Fault{Kind: ClockJump, Masters: []int{2}, Jump: 5 * time.Second}},
		{spec: "clock-jump:masters=1,2,3:at=1s:by=-500ms:for=2s", want: Fault{Kind: ClockJump, Masters: []int{1, 2, 3}, At: dur{D: time.Second}, For: dur{D: 2 * time.Second}, Jump: -500 * time.Millisecond}},

		{spec: "pause-client:for=1s", wantErr: "workers=N"},
		{spec: "pause-client:workers=1", wantErr: "pause-client needs for="},
		{spec: "pause-client:workers=0:for=1s", wantErr: "1-based worker"},
		{spec: "pause-client:workers=1:masters=1:for=1s", wantErr: "does not apply"},
		{spec: "clock-jump:masters=2", wantErr: "needs a step"},
		{spec: "clock-jump:masters=2:by=5s", wantErr: "signed step"},
		{spec: "clock-jump:masters=2:+0s", wantErr: "signed step"},
		{spec: "clock-jump:masters=2:+soon", wantErr: "signed step"},
		{spec: "clock-jump:workers=2:+1s", wantErr: "does not apply"},
		{spec: "clock-drift:masters=3:rate=+1%", want: Fault{Kind: ClockDrift, Masters: []int{3}, Rate: 0.01}},
		{spec: "clock-drift:masters=1:rate=-0.1%:at=1s:for=2s", want: Fault{Kind: ClockDrift, Masters: []int{1}, At: dur{D: time.Second}, For: dur{D: 2 * time.Second}, Rate: -0.001}},
		{spec: "clock-drift:masters=2:rate=0.1", want: Fault{Kind: ClockDrift, Masters: []int{2}, Rate: 0.1}},
		{spec: "clock-drift:masters=2", wantErr: "needs rate="},
		{spec: "clock-drift:masters=2:rate=0%", wantErr: "non-zero rate"},
		{spec: "clock-drift:masters=2:rate=150%", wantErr: "within ±100%"},
		{spec: "clock-drift:masters=2:rate=fast", wantErr: "non-zero rate"},
		{spec: "clock-drift:masters=2:rate=NaN", wantErr: "non-zero rate"},
		{spec: "clock-drift:masters=2:+1s", wantErr: "want key=value"},
		{spec: "clock-jump:masters=2:+1s:rate=1%", wantErr: "does not apply"},
		{spec: "kill:masters=1:+5s", wantErr: "key=value"},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			got, err := parse(c.spec)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.want.Spec = c.spec
			if got.Kind != c.want.Kind || !slices.Equal(got.Masters, c.want.Masters) || got.At != c.want.At || got.For != c.want.For ||
				!slices.Equal(got.Workers, c.want.Workers) || got.Jump != c.want.Jump || got.Restart != c.want.Restart || got.Delay != c.want.Delay || got.MS != c.want.MS || got.Jitter != c.want.Jitter || got.Spec != c.want.Spec {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestDurResolveAndString(t *testing.T) {
	ttl := 2 * time.Second
	for _, c := range []struct {
		in   string
		want time.Duration
	}{{"1s", time.Second}, {"ttl", ttl}, {"ttl+1s", 3 * time.Second}, {"ttl-500ms", 1500 * time.Millisecond}} {
		d, err := parseDur(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Resolve(ttl); got != c.want {
			t.Errorf("%s: %v, want %v", c.in, got, c.want)
		}
		if d2, _ := parseDur(d.String()); d2 != d {
			t.Errorf("%s: String %q does not parse back", c.in, d.String())
		}
	}
}

func TestCheck(t *testing.T) {
	f, _ := parse("kill:masters=4")
	if err := f.Check(3, 1, true); err == nil || !strings.Contains(err.Error(), "has 3") {
		t.Errorf("master out of range: %v", err)
	}
	if err := f.Check(5, 1, false); err == nil || !strings.Contains(err.Error(), "local masters") || strings.Contains(err.Error(), "--") {
		t.Errorf("kill on external masters: %v (want config fields named, not flags)", err)
	}
	p, _ := parse("partition:masters=1")
	if err := p.Check(5, 1, false); err != nil {
		t.Errorf("partition on external masters: %v", err)
	}
	pc, _ := parse("pause-client:workers=3:for=1s")
	if err := pc.Check(5, 2, false); err == nil || !strings.Contains(err.Error(), "worker 3: the run has 2") {
		t.Errorf("worker out of range: %v", err)
	}
	if err := pc.Check(5, 3, false); err != nil {
		t.Errorf("pause-client on external masters: %v", err)
	}
	cj, _ := parse("clock-jump:masters=1:+1s")
	if err := cj.Check(5, 1, false); err == nil || !strings.Contains(err.Error(), "local masters") {
		t.Errorf("clock-jump on external masters: %v", err)
	}
	if !Has([]Fault{f, cj}, ClockJump) || Has([]Fault{f, pc}, ClockJump) {
		t.Error("Has")
	}
	cd, _ := parse("clock-drift:masters=1:rate=1%")
	if !Clocked([]Fault{f, cj}) || !Clocked([]Fault{cd}) || Clocked([]Fault{f, pc}) {
		t.Error("Clocked")
	}
	if err := Applies(cd, OnEtcd); err == nil || !strings.Contains(err.Error(), "clock-drift applies to Redis masters only") {
		t.Errorf("clock-drift on etcd: %v", err)
	}
	if _, proxied, _ := ParseAll([]string{"kill:masters=1", "latency:masters=1:ms=1"}); !proxied {
		t.Error("ParseAll: latency needs proxies")
	}
}

// TestCheckTTL: a ttl-relative time that comes out negative for the run's
// TTL is refused as a negative one is; one that does not is accepted.
func TestCheckTTL(t *testing.T) {
	for _, c := range []struct {
		spec string
		ttl  time.Duration
		ok   bool
	}{
		{"kill:masters=1:at=ttl-5s", 2 * time.Second, false},
		{"kill:masters=1:at=ttl-5s", 10 * time.Second, true},
		{"stop:masters=1:for=ttl-3s", 2 * time.Second, false},
		{"kill:masters=1:restart=delayed:delay=ttl-1s", 500 * time.Millisecond, false},
		{"kill:masters=1:at=ttl", time.Second, true},
	} {
		f, err := parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.CheckTTL(c.ttl); (err == nil) != c.ok {
			t.Errorf("%s with ttl %v: %v, want ok %v", c.spec, c.ttl, err, c.ok)
		}
	}
}

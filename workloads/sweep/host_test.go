package sweep

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// probedLab is a fakeLab whose host is probed: each probe gives the next
// of noise, and says how long it was asked to probe.
type probedLab struct {
	fakeLab
	noise []schema.HostNoise
	asked []time.Duration
}

func (p *probedLab) HostNoise(_ context.Context, d time.Duration) schema.HostNoise {
	p.asked = append(p.asked, d)
	h := p.noise[0]
	p.noise = p.noise[1:]
	return h
}

// TestSweepProbesHost: the host is probed before a strategy's first step
// and after its last, its change said in sweep.json and under the knees
// table; an unchanged host is not remarked on, and no probe is made when
// none is asked for.
func TestSweepProbesHost(t *testing.T) {
	quiet := schema.HostNoise{ProbeS: 1, WakeP99US: 150, StallMSPerS: 0.3}
	noisy := schema.HostNoise{ProbeS: 1, WakeP99US: 2000, StallMSPerS: 25}
	cases := []struct {
		name    string
		probe   time.Duration
		noise   []schema.HostNoise
		asked   int
		changed string
	}{
		{"steady", time.Second, []schema.HostNoise{quiet, quiet}, 2, ""},
		{"noisier after", time.Second, []schema.HostNoise{quiet, noisy}, 2, "stalls 0.3 → 25.0 ms/s, wake-up p99 150µs → 2ms"},
		{"not probed", NoHostProbe, nil, 0, ""},
	}
	for _, c := range cases {
		cfg := workers(100, 20, 2)
		cfg.HostProbe = c.probe
		m := &probedLab{fakeLab: fakeLab{p99: under(500)}, noise: c.noise}
		res, err := Run(context.Background(), m, cfg, Observers{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sw := res.Sweeps[0]
		if len(m.asked) != c.asked {
			t.Errorf("%s: probed %d times, want %d", c.name, len(m.asked), c.asked)
		}
		for _, d := range m.asked {
			if d != c.probe {
				t.Errorf("%s: probed for %v, want %v", c.name, d, c.probe)
			}
		}
		if c.asked == 2 && (sw.HostBefore == nil || sw.HostAfter == nil || *sw.HostBefore != c.noise[0] || *sw.HostAfter != c.noise[1]) {
			t.Errorf("%s: host before %v after %v, want %v", c.name, sw.HostBefore, sw.HostAfter, c.noise)
		}
		if sw.HostChanged != c.changed {
			t.Errorf("%s: host_changed %q, want %q", c.name, sw.HostChanged, c.changed)
		}
		var b strings.Builder
		WriteKnees(&b, res.Sweeps, cfg.withDefaults())
		if said := strings.Contains(b.String(), "the host changed during the sweep"); said != (c.changed != "") {
			t.Errorf("%s: the table says the host changed: %v, want %v\n%s", c.name, said, c.changed != "", b.String())
		}
	}
}

// TestSweepHostProbeCanceled: a sweep canceled before its end probes the
// host once, before, and judges no change.
func TestSweepHostProbeCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &probedLab{fakeLab: fakeLab{p99: under(500), cancelAt: 2, cancel: cancel},
		noise: []schema.HostNoise{{ProbeS: 1, StallMSPerS: 1}, {ProbeS: 1, StallMSPerS: 30}}}
	cfg := workers(100, 20, 2)
	cfg.HostProbe = time.Second
	res, err := Run(ctx, m, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.asked) != 1 || res.Sweeps[0].HostAfter != nil || res.Sweeps[0].HostChanged != "" {
		t.Errorf("probes %d, after %v, changed %q: want one probe before and no judgement", len(m.asked), res.Sweeps[0].HostAfter, res.Sweeps[0].HostChanged)
	}
}

var _ hostProber = (*lab.Lab)(nil)

// TestSweepProbesHostBetweenStrategies: strategies swept one after the
// other share the probe between them (the one after a strategy's last
// step is the next one's before), so n strategies take n+1 probes.
func TestSweepProbesHostBetweenStrategies(t *testing.T) {
	probes := []schema.HostNoise{{ProbeS: 1, StallMSPerS: 0.1}, {ProbeS: 1, StallMSPerS: 0.2}, {ProbeS: 1, StallMSPerS: 0.3}, {ProbeS: 1, StallMSPerS: 0.4}}
	m := &probedLab{fakeLab: fakeLab{p99: under(500)}, noise: probes}
	cfg := workers(100, 20, 2)
	cfg.Muxes, cfg.HostProbe = []string{"sequential", "fanout", "pipeline"}, time.Second
	res, err := Run(context.Background(), m, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.asked) != 4 {
		t.Errorf("probed %d times for 3 strategies, want 4", len(m.asked))
	}
	for i, sw := range res.Sweeps {
		if sw.HostBefore == nil || sw.HostAfter == nil || *sw.HostBefore != probes[i] || *sw.HostAfter != probes[i+1] {
			t.Errorf("strategy %d: before %v after %v, want %v then %v", i, sw.HostBefore, sw.HostAfter, probes[i], probes[i+1])
		}
	}
}

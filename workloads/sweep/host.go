package sweep

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// hostProber probes the host's own noise with the servers idle: a
// *lab.Lab; a measurer without it (a fake) is not probed.
type hostProber interface {
	HostNoise(ctx context.Context, d time.Duration) schema.HostNoise
}

// probeHost probes the host for the configured time when the measurer
// can, nil otherwise or when ctx was canceled meanwhile (nothing probed).
func (s *strategy) probeHost(ctx context.Context) *schema.HostNoise {
	p, ok := s.m.(hostProber)
	if !ok || s.cfg.hostProbe() <= 0 || ctx.Err() != nil {
		return nil
	}
	if h := p.HostNoise(ctx, s.cfg.hostProbe()); h.ProbeS > 0 {
		return &h
	}
	return nil
}

// hostNote says under the knees table that the host changed during s.
func hostNote(s schema.Sweep) []string {
	if s.HostChanged == "" {
		return nil
	}
	return []string{fmt.Sprintf("%s: the host changed during the sweep (probed idle before and after: %s): "+
		"its knee belongs to neither state and a rerun may land outside its interval; sweep again", s.Name, s.HostChanged)}
}

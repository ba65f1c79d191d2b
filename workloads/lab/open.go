package lab

import (
	"context"
	"io"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results/schema"
)

// Open brings the lab up (Up, phases on log) and starts the summary of
// what is measured on it: config (serialised whole: a Config, or a
// command's config holding the cells') with the servers' versions and
// facts, and their warnings told on log. The summary's Started is when
// Open was called. On an error nothing is left running.
func Open(ctx context.Context, spec compose.Spec, log io.Writer, config any) (*Lab, *schema.Summary, error) {
	started := time.Now()
	l, err := Up(ctx, spec, log)
	if err != nil {
		return nil, nil, err
	}
	sum, err := schema.NewSummary(started, config)
	if err != nil {
		l.Close()
		return nil, nil, err
	}
	sum.Versions = l.Versions(ctx, sum.Versions)
	sum.Servers = l.Servers(sum.Servers, log)
	return l, sum, nil
}

package compose

import "context"

// upBackends starts the servers of the non-Redlock backends a spec asks for:
// ZooKeeper, PostgreSQL, the Sentinel topology.
func (t *Topology) upBackends(ctx context.Context, spec Spec) error {
	if spec.NeedsZooKeeper {
		if err := t.upZooKeeper(ctx, spec); err != nil {
			return err
		}
	}
	if spec.NeedsPostgres {
		if err := t.upPostgres(ctx, spec); err != nil {
			return err
		}
	}
	if spec.NeedsSentinel {
		s, err := StartSentinel(ctx, spec.Sentinel)
		if err != nil {
			return err
		}
		t.Sentinel = s
		t.closers = append(t.closers, s)
	}
	return nil
}

package lab

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/fielderr"
)

// CheckGiven refuses a field given for a cell it does not apply to (a
// client's tuning for the other client, a pipeline setting for fan-out,
// external masters for etcd), so a run never silently does something other
// than asked: a *fielderr.Error naming the first such field and why.
// given are JSON paths ("driver.client_tuning.rueidis_pipes"); a field says
// where it applies in its applies tag (backends.Spec's comment lists the
// words), and a backend's own settings ("driver.postgres.mode") apply to it
// alone.
func (c Config) CheckGiven(given []string) error {
	b, ok := backends.Lookup(c.Driver.Backend)
	if !ok {
		return nil // Validate names the backend
	}
	rules := flagtag.Tags(&c, "applies")
	for _, field := range given {
		if err := c.applies(b, field, rules[field]); err != nil {
			return err
		}
	}
	return nil
}

// applies is nil when field, with its applies rule, holds for c's backend b.
func (c Config) applies(b backends.Backend, field, rule string) error {
	if rest, ok := strings.CutPrefix(field, "driver."); ok {
		key, _, _ := strings.Cut(rest, ".")
		if owner, ok := backends.SettingsOf(key); ok && owner.Name != b.Name {
			return refuse(field, "it is backend %s's, not %s's", owner.Name, b.Name)
		}
	}
	if rule == "" {
		return nil
	}
	external := len(c.Topology.RedisAddrs) > 0
	for _, cond := range strings.Split(rule, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(cond), "=")
		switch name {
		case "local":
			if external {
				return &fielderr.Error{Field: field, Err: errors.New("does not apply"),
					Hint: "the masters are given by %s", HintField: "topology.redis_addrs"}
			}
		case "external":
			if !external {
				return refuse(field, "it is for external masters; local ones get a generated password (backend %s)", b.Name)
			}
		case "clients", "client":
			if len(b.Clients) == 0 {
				return refuse(field, "backend %s has no client choice", b.Name)
			}
			if value != "" && c.Driver.Client != value {
				return refuse(field, "it tunes the %s client (here: %s)", value, c.Driver.Client)
			}
		case "muxes", "mux":
			if len(b.Muxes) == 0 {
				return refuse(field, "backend %s has no strategy choice", b.Name)
			}
			if value != "" && c.Driver.Mux != value {
				return refuse(field, "it is the %s strategy's (here: %s)", value, c.Driver.Mux)
			}
		default:
			if k, ok := backends.ParseServer(name); !ok || !b.Uses(k) {
				return refuse(field, "backend %s uses no %s", b.Name, name)
			}
		}
	}
	return nil
}

// refuse is a field error: "FIELD does not apply: WHY".
func refuse(field, why string, a ...any) error {
	return &fielderr.Error{Field: field, Err: fmt.Errorf("does not apply: "+why, a...)}
}

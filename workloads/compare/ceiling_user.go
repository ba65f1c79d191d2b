package compare

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/lockbench/lockbench/drivers/redisconn"
)

// redis-benchmark (7.0) takes a password only as -a on its command line,
// which every local user can read in /proc. So it never gets a master's
// own password: on each master that has one, it runs as a throwaway ACL
// user made for the measurement, with a password of its own, allowed
// only the commands the ceiling sends on the ceiling's keys
// (lockbench:ceiling:*), and deleted when the measurement ends. Whoever
// reads that password while redis-benchmark runs can write those keys and
// nothing else.
var benchUserRules = []any{"on", "resetkeys", "~lockbench:ceiling:*", "resetchannels", "-@all",
	"+set", "+evalsha", "+get", "+del", "+ping", "+select"}

// benchUsers makes the throwaway users: it returns the masters as
// redis-benchmark reaches them and a function that deletes the users.
// A master without a password is reached as it is.
func benchUsers(ctx context.Context, masters []redisconn.Endpoint) (_ []redisconn.Endpoint, drop func(), err error) {
	out := make([]redisconn.Endpoint, len(masters))
	var made []func()
	drop = func() {
		for _, d := range made {
			d()
		}
	}
	defer func() {
		if err != nil {
			drop()
		}
	}()
	for i, m := range masters {
		out[i] = m
		if m.Password == "" {
			continue
		}
		name, pw, err := benchCredentials()
		if err != nil {
			return nil, nil, err
		}
		c := adminClient(m)
		args := append([]any{"ACL", "SETUSER", name, ">" + pw}, benchUserRules...)
		if err := c.Do(ctx, args...).Err(); err != nil {
			_ = c.Close()
			return nil, nil, fmt.Errorf("ceiling: %s: making a throwaway ACL user for redis-benchmark (which reads a password only from its command line, where any local user sees it): %w", m, err)
		}
		made = append(made, func() {
			_ = c.Do(context.WithoutCancel(ctx), "ACL", "DELUSER", name).Err()
			_ = c.Close()
		})
		out[i].Username, out[i].Password = name, pw
	}
	return out, drop, nil
}

// benchCredentials are a fresh user name and password. The password is
// not a secret redact masks: it is on redis-benchmark's command line by
// necessity, and what it opens is the ceiling's keys alone.
func benchCredentials() (name, pw string, err error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("ceiling: %w", err)
	}
	pw = hex.EncodeToString(b[4:])
	return "lockbench-ceiling-" + hex.EncodeToString(b[:4]), pw, nil
}

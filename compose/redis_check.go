package compose

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/schema"
)

// adminClient is a one-connection client that never retries, closed by
// done. go-redis bounds a command by its context's deadline only
// (ContextTimeoutEnabled), not by its cancellation, so the client is also
// closed when ctx ends: a Ctrl-C during a check ends the blocked read at
// once instead of at the deadline.
func adminClient(ctx context.Context, e redisconn.Endpoint) (c *redis.Client, done func()) {
	o := e.GoRedis()
	o.MaxRetries, o.DisableIdentity, o.ContextTimeoutEnabled, o.PoolSize = -1, true, true, 1
	c = redis.NewClient(o)
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	return c, func() {
		if stop() {
			_ = c.Close()
		}
	}
}

// Ping checks that the master at e answers PING (dial, TLS and AUTH first).
func Ping(ctx context.Context, e redisconn.Endpoint) error {
	c, done := adminClient(ctx, e)
	defer done()
	return c.Ping(ctx).Err()
}

// checkTimeout bounds the up-front check of one master.
const checkTimeout = 5 * time.Second

// checkMaster is the up-front check of one master: dialled, authenticated,
// PINGed, a master by ROLE, allowed the lock commands (SET NX PX and the
// release and extend scripts, on a probe key of its own), and its facts
// read. The error names the redacted master and the server's reason.
func checkMaster(ctx context.Context, e redisconn.Endpoint) (schema.Server, error) {
	s, _, err := checkMasterRunID(ctx, e)
	return s, err
}

// checkMasterRunID is checkMaster that also returns the server's run_id: the
// identity of the redis-server process, whatever address reached it.
func checkMasterRunID(ctx context.Context, e redisconn.Endpoint) (schema.Server, string, error) {
	return checkMasterWithin(ctx, e, checkTimeout)
}

// checkMasterWithin is checkMasterRunID bounded by timeout.
func checkMasterWithin(ctx context.Context, e redisconn.Endpoint, timeout time.Duration) (schema.Server, string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	fail := func(err error) (schema.Server, string, error) {
		if errors.Is(ctx.Err(), context.Canceled) { // interrupted: not the server's doing
			return schema.Server{}, "", fielderr.Invalid("redis_addrs", e.String(), "%w: %w", ErrUnreachable, ctx.Err())
		}
		fe := fielderr.Invalid("redis_addrs", e.String(), "%w: %s", ErrUnreachable, said(err, timeout))
		fe.Hint, fe.HintField = hint(e, err)
		return schema.Server{}, "", fe
	}
	defer cancel()
	c, done := adminClient(ctx, e)
	defer done()
	if err := c.Ping(ctx).Err(); err != nil {
		return fail(err)
	}
	role, err := c.Do(ctx, "ROLE").Slice()
	if err != nil {
		return fail(err)
	}
	if len(role) == 0 || role[0] != "master" {
		return fail(fmt.Errorf("ROLE is %v, not master: Redlock needs independent masters", role[0]))
	}
	if err := probeLockCommands(ctx, c); err != nil {
		return fail(err)
	}
	info, err := c.Info(ctx).Result()
	if err != nil {
		return fail(err)
	}
	facts := parseInfo(info)
	s := serverFacts(e, facts, configGet(ctx, c, "appendfsync", "io-threads", "save"))
	return s, facts["run_id"], nil
}

// probeLockCommands runs a lock's life once, so an ACL user without SET,
// EVALSHA/EVAL or PEXPIRE fails here with the server's NOPERM rather than
// as a run of errors.
func probeLockCommands(ctx context.Context, c *redis.Client) error {
	key := "lockbench:probe:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := c.SetNX(ctx, key, "probe", time.Second).Err(); err != nil {
		return err
	}
	if err := redis.NewScript(redlock.ExtendScript).Run(ctx, c, []string{key}, "probe", "1000").Err(); err != nil {
		return err
	}
	return redis.NewScript(redlock.ReleaseScript).Run(ctx, c, []string{key}, "probe").Err()
}

// hint says how to mend a failed check where the server's or the
// network's bare word would not say what is wrong: a fielderr hint (its %s
// is field, relative to the topology's config), "" when none.
func hint(e redisconn.Endpoint, err error) (hint, field string) {
	var unknown x509.UnknownAuthorityError
	msg := err.Error()
	switch {
	case errors.As(err, &unknown):
		return "give the CA with %s", "redis_auth.tls.ca_cert"
	case strings.Contains(msg, "first record does not look like a TLS handshake"),
		e.Secure() && errors.Is(err, context.DeadlineExceeded): // a plain server reads a ClientHello as a command and waits
		return "a plain port: use redis://, not rediss:// in %s", "redis_addrs"
	case !e.Secure() && (errors.Is(err, io.EOF) || strings.Contains(msg, "connection reset")):
		return "the server closed the connection: a TLS port? use rediss:// in %s", "redis_addrs"
	case strings.HasPrefix(msg, "NOAUTH"):
		return "give a password: redis://:PASSWORD@host:port, " + redisconn.EnvPassword + " or %s", "redis_auth.password_file"
	}
	return "", ""
}

// said is what the check's failure says: the server's or the network's
// word, except for a timeout (the check's, within), which the client's
// words (i/o timeout, use of closed network connection) do not name as one.
func said(err error, within time.Duration) string {
	switch {
	case noAnswer(err, false):
		return fmt.Sprintf("no answer within %v: connected, but the server said nothing (stopped, overloaded, or not a Redis server)", within)
	case noAnswer(err, true):
		return fmt.Sprintf("no connection within %v: nothing accepted it", within)
	}
	return err.Error()
}

// noAnswer reports whether err is a timeout while connecting (dial) or,
// !dial, after.
func noAnswer(err error, dial bool) bool {
	ok, d := drivers.NoAnswer(err)
	return ok && d == dial
}

// parseInfo reads INFO's key:value lines.
func parseInfo(info string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			m[k] = v
		}
	}
	return m
}

// configGet reads settings INFO does not show; an empty map where CONFIG
// is not allowed (managed Redis, ACL users).
func configGet(ctx context.Context, c *redis.Client, keys ...string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		if m, err := c.ConfigGet(ctx, k).Result(); err == nil {
			for kk, v := range m {
				out[kk] = v
			}
		}
	}
	return out
}

// serverFacts keeps the essentials and says where the setup cannot give
// Redlock's guarantees.
func serverFacts(e redisconn.Endpoint, info, conf map[string]string) schema.Server {
	s := schema.Server{
		Kind: "redis", Endpoint: e.String(), Version: info["redis_version"], Role: info["role"],
		TLS: e.Secure(), TLSVerifyOff: e.TLS != nil && e.TLS.InsecureSkipVerify,
		MaxmemoryPolicy: info["maxmemory_policy"], AppendOnly: info["aof_enabled"] == "1",
		AppendFsync: conf["appendfsync"], RDBSaves: conf["save"] != "",
		IOThreadsOn: info["io_threads_active"] == "1",
	}
	s.Maxmemory, _ = strconv.ParseInt(info["maxmemory"], 10, 64)
	s.IOThreads, _ = strconv.Atoi(conf["io-threads"])
	s.Warnings = warnings(s)
	return s
}

// warnings are the setups under which a Redlock grant can be lost or doubled.
func warnings(s schema.Server) []string {
	var w []string
	if s.Role != "" && s.Role != "master" {
		w = append(w, "role "+s.Role+": a replica is not an independent master")
	}
	switch {
	case !s.AppendOnly:
		w = append(w, "appendonly no: a restarted master forgets its locks; Redlock then needs every restart delayed by the TTL, which lockbench cannot check")
	case s.AppendFsync != "" && s.AppendFsync != "always":
		w = append(w, "appendfsync "+s.AppendFsync+": a crash loses the last writes, locks included; Redlock then needs restarts delayed by the TTL")
	}
	if s.Maxmemory > 0 && s.MaxmemoryPolicy != "noeviction" {
		w = append(w, "maxmemory-policy "+s.MaxmemoryPolicy+" with maxmemory set: lock keys (all with a TTL) can be evicted while held")
	}
	if s.TLSVerifyOff {
		w = append(w, "TLS certificate NOT verified (redis_auth.tls.insecure_skip_verify): anyone on the path can pose as this master")
	}
	return w
}

package compare

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	rdb "github.com/redis/rueidis"

	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/rueidis"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/schema"
)

// The floor is what one client library does with a pipeline cell's
// commands and nothing of lockbench's around them: no locker, no quorum
// bookkeeping, no per-cycle token, no recorder, referee or multiplexing
// strategy. Each round sends, on every master at once, one explicit
// pipeline of SET key token NX PX ttl for every worker's key, waits for
// all of them, then one pipeline of the release script by SHA for the same
// keys: the batches a pipeline cell's masters see at that many workers
// (every worker's next command in one batch, a cycle over two batches).
// The clients are dialed as the pipeline cells dial them (the drivers'
// Dial). Between the ceiling (redis-benchmark: no Go client at all) and a
// cell, the floor splits the gap into the library's share and lockbench's.

// Floor is one client's floor on one masters count.
type Floor struct {
	Client           string
	Masters, Workers int
	// CyclesPerS is the round's; of a floor measured in rounds
	// (medianFloor) the median of theirs.
	CyclesPerS float64
	// Cycles are the cycles of the measured window (of one round).
	Cycles int64
	// Errors counts the commands that did not answer OK (a SET refused, a
	// release that deleted nothing, an error): 0 on healthy masters.
	Errors int64
	// Cost is what a cycle cost: this process's CPU, the masters'.
	Cost *schema.Cost
}

// floorClients are the clients with a floor.
var floorClients = map[string]func(masters []redisconn.Endpoint, workers int, ttl time.Duration, sha string) ([]floorMaster, func(), error){
	"goredis": dialGoredisFloor,
	"rueidis": dialRueidisFloor,
}

// floorMaster runs one phase of a round on one master: every key's SET
// (acquire) or release as one pipeline. It returns the commands that did
// not answer OK.
type floorMaster interface {
	phase(ctx context.Context, keys []string, token string, acquire bool) int64
}

// measureFloor measures client's floor on masters with workers keys per
// round: warmup, then rounds until duration has passed. With log non-nil
// it tells the result in one line.
func measureFloor(ctx context.Context, client string, masters []redisconn.Endpoint, workers int, ttl, warmup, duration time.Duration, server procstat.ServerCPU, log io.Writer) (Floor, error) {
	dial, ok := floorClients[client]
	if !ok {
		return Floor{}, fmt.Errorf("no floor for client %q", client)
	}
	sha, err := loadReleaseScript(ctx, masters)
	if err != nil {
		return Floor{}, err
	}
	ms, closeAll, err := dial(masters, workers, ttl, sha)
	if err != nil {
		return Floor{}, err
	}
	defer closeAll()
	token, err := floorToken()
	if err != nil {
		return Floor{}, err
	}
	keys := make([]string, workers)
	for i := range keys {
		keys[i] = "lockbench:floor:" + client + ":" + strconv.Itoa(i)
	}
	f := Floor{Client: client, Masters: len(masters), Workers: workers}
	fails := make([]int64, len(ms))
	var wg sync.WaitGroup
	all := func(acquire bool) {
		for i, m := range ms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fails[i] += m.phase(ctx, keys, token, acquire)
			}()
		}
		wg.Wait()
	}
	round := func() {
		all(true)
		all(false)
	}
	for end := time.Now().Add(warmup); time.Now().Before(end) && ctx.Err() == nil; {
		round()
	}
	clear(fails)
	var rounds int64
	s0, start := procstat.SampleCost(server), time.Now()
	for end := start.Add(duration); time.Now().Before(end) && ctx.Err() == nil; rounds++ {
		round()
	}
	took, s1 := time.Since(start), procstat.SampleCost(server)
	if err := ctx.Err(); err != nil {
		return Floor{}, err
	}
	cycles := rounds * int64(workers)
	for _, n := range fails {
		f.Errors += n
	}
	f.Cycles, f.CyclesPerS = cycles, float64(cycles)/took.Seconds()
	f.Cost = procstat.CostBetween(s0, s1, cycles, server)
	if log != nil {
		fmt.Fprintf(log, "floor: bare %s, %d masters, %d keys a pipeline → %.0f cycles/s; %s%s\n",
			client, f.Masters, workers, f.CyclesPerS, costText(f.Cost), floorErrors(f.Errors))
	}
	return f, nil
}

// floorErrors is a floor's failed commands, for its one-line summary.
func floorErrors(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d commands failed (the floor is only as good as its masters)", n)
}

// floorToken is one lock token, as long as a lock's (20 random bytes,
// base64url): the floor's commands carry the same bytes as a cell's.
func floorToken() (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// goredisFloor is one master behind go-redis: Client.Pipelined, as a user
// pipelines.
type goredisFloor struct {
	c   *redis.Client
	ms  string // the TTL in milliseconds
	sha string
}

func dialGoredisFloor(masters []redisconn.Endpoint, workers int, ttl time.Duration, sha string) ([]floorMaster, func(), error) {
	nodes, err := goredis.Dial(masters, goredis.Options{PoolSize: workers})
	if err != nil {
		return nil, nil, err
	}
	out := make([]floorMaster, len(nodes))
	for i, n := range nodes {
		out[i] = &goredisFloor{c: n.Client(), ms: strconv.FormatInt(ttl.Milliseconds(), 10), sha: sha}
	}
	return out, func() { _ = goredis.CloseAll(nodes) }, nil
}

func (m *goredisFloor) phase(ctx context.Context, keys []string, token string, acquire bool) int64 {
	cmds, _ := m.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range keys {
			if acquire {
				p.Do(ctx, "SET", k, token, "NX", "PX", m.ms)
			} else {
				p.EvalSha(ctx, m.sha, []string{k}, token)
			}
		}
		return nil
	})
	var failed int64
	for _, c := range cmds {
		c, ok := c.(*redis.Cmd)
		if !ok {
			failed++
			continue
		}
		v, err := c.Result()
		if err != nil || (acquire && v != "OK") || (!acquire && v != int64(1)) {
			failed++
		}
	}
	return failed + int64(len(keys)-len(cmds))
}

// rueidisFloor is one master behind rueidis: DoMulti, commands built as
// the pipeline cell builds them (Arbitrary: no cluster-slot hashing).
type rueidisFloor struct {
	c   rdb.Client
	ms  string
	sha string
	buf rdb.Commands
}

func dialRueidisFloor(masters []redisconn.Endpoint, workers int, ttl time.Duration, sha string) ([]floorMaster, func(), error) {
	nodes, err := rueidis.Dial(masters, rueidis.Options{PoolSize: workers})
	if err != nil {
		return nil, nil, err
	}
	out := make([]floorMaster, len(nodes))
	for i, n := range nodes {
		out[i] = &rueidisFloor{c: n.Client(), ms: strconv.FormatInt(ttl.Milliseconds(), 10), sha: sha, buf: make(rdb.Commands, 0, workers)}
	}
	return out, func() { _ = rueidis.CloseAll(nodes) }, nil
}

func (m *rueidisFloor) phase(ctx context.Context, keys []string, token string, acquire bool) int64 {
	cmds := m.buf[:0]
	for _, k := range keys {
		if acquire {
			cmds = append(cmds, m.c.B().Arbitrary("SET").Args(k, token, "NX", "PX", m.ms).Build())
		} else {
			cmds = append(cmds, m.c.B().Arbitrary("EVALSHA").Args(m.sha, "1", k, token).Build())
		}
	}
	var failed int64
	for _, r := range m.c.DoMulti(ctx, cmds...) {
		if acquire {
			if s, err := r.ToString(); err != nil || s != "OK" {
				failed++
			}
		} else if v, err := r.AsInt64(); err != nil || v != 1 {
			failed++
		}
	}
	clear(cmds)
	return failed
}

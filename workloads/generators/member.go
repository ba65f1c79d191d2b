package generators

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/etcdconn"
)

// Member is this process as one generator of a run.
type Member struct {
	cfg    Config
	cli    *clientv3.Client
	lease  clientv3.LeaseID
	prefix string
	st     *state
	stop   context.CancelFunc // ends the watch and the keepalive
	wg     sync.WaitGroup

	// answered is when the store last answered a keepalive (UnixNano).
	answered atomic.Int64
	// frozeUntil is when this process last resumed from a pause of
	// storeQuiet or more (UnixNano; 0: none): SIGSTOP, a VM paused, a
	// machine too loaded to schedule it (pauses).
	frozeUntil atomic.Int64
	ticked     atomic.Int64 // pauses' last tick (UnixNano)
	// cut is closed when this generator's lease ended before Close: the
	// store was lost, or this generator was cut off from the run; no
	// key of the run will be seen or published any more.
	cut chan struct{}

	abortOnce sync.Once
	aborted   chan struct{}
	abortMu   sync.Mutex
	abort     *AbortError
	finished  bool // a verdict was published or seen: deletions are exits
}

// Join makes this process generator cfg.Index of the run under
// cfg.Prefix: it registers under a lease of its own; generator 0
// publishes plan (the run's config as JSON), the others wait for it
// (cfg.JoinTimeout) and must hold the same plan (ErrPlanMismatch). cfg must
// have been Resolved.
func Join(ctx context.Context, cfg Config, plan []byte) (*Member, error) {
	cc := clientv3.Config{Endpoints: cfg.Coord, DialTimeout: 5 * time.Second, Context: ctx, Logger: zap.NewNop()}
	err := etcdconn.Access{Username: cfg.CoordUser, Password: cfg.CoordPassword,
		CACert: cfg.CoordCACert, Cert: cfg.CoordCert, Key: cfg.CoordKey}.Apply(&cc)
	if err != nil {
		return nil, fmt.Errorf("generators: coordination etcd: %w", err)
	}
	cli, err := clientv3.New(cc)
	if err != nil {
		return nil, coordError(ctx, cfg.Coord, 5*time.Second, err)
	}
	m := &Member{cfg: cfg, cli: cli, prefix: "/lockbench/generators/" + cfg.Prefix + "/", st: newState(), aborted: make(chan struct{}), cut: make(chan struct{})}
	if err := m.join(ctx, plan); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// coordError is a failure to reach the coordination etcd within d: a
// timeout is said as no answer within d (the client's words, context
// deadline exceeded, do not say so), unless ctx ended.
func coordError(ctx context.Context, coord []string, d time.Duration, err error) error {
	if ok, _ := drivers.NoAnswer(err); ok && ctx.Err() == nil {
		return fmt.Errorf("generators: coordination etcd %s: no answer within %v (%w)", strings.Join(coord, ","), d, err)
	}
	return fmt.Errorf("generators: coordination etcd %s: %w", strings.Join(coord, ","), err)
}

func (m *Member) join(ctx context.Context, plan []byte) error {
	reach, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	lease, err := m.cli.Grant(reach, leaseTTL)
	if err != nil {
		return coordError(ctx, m.cfg.Coord, 10*time.Second, err)
	}
	m.lease = lease.ID
	m.answered.Store(time.Now().UnixNano())
	m.ticked.Store(time.Now().UnixNano())
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	m.stop = stop
	alive, err := m.cli.KeepAlive(bg, m.lease)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	me, _ := json.Marshal(memberInfo{Host: host, Pid: os.Getpid()})
	put := []clientv3.Op{clientv3.OpPut(m.key("member", m.cfg.Index), string(me), clientv3.WithLease(m.lease))}
	cmp := []clientv3.Cmp{clientv3.Compare(clientv3.CreateRevision(m.key("member", m.cfg.Index)), "=", 0)}
	if m.cfg.Index == 0 {
		put = append(put, clientv3.OpPut(m.prefix+"plan", string(plan), clientv3.WithLease(m.lease)))
		cmp = append(cmp, clientv3.Compare(clientv3.CreateRevision(m.prefix+"plan"), "=", 0))
	}
	resp, err := m.cli.Txn(reach).If(cmp...).Then(put...).Commit()
	if err != nil {
		return fmt.Errorf("generators: coordination etcd: %w", err)
	}
	if !resp.Succeeded {
		return fmt.Errorf("generators: generator %d (or a run's plan) is already registered under prefix %q: another run is using it, or one ended less than %d s ago", m.cfg.Index, m.cfg.Prefix, leaseTTL)
	}
	m.wg.Add(3)
	go func() { defer m.wg.Done(); m.pauses(bg) }()
	go func() { defer m.wg.Done(); m.keepAlive(bg, alive) }()
	go func() { defer m.wg.Done(); m.watch(bg, resp.Header.Revision) }()
	if m.cfg.Index == 0 {
		return nil
	}
	wait, cancelWait := context.WithTimeout(ctx, m.cfg.JoinTimeout)
	defer cancelWait()
	if err := m.st.wait(wait, func(v map[string][]byte, _ map[string]bool) bool { _, ok := v[m.prefix+"plan"]; return ok }); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("generators: %w within %v", ErrNoPlan, m.cfg.JoinTimeout)
	}
	theirs, _ := m.st.get(m.prefix + "plan")
	if err := comparePlans(plan, theirs); err != nil {
		m.Abort(&AbortError{Kind: Failed, Generator: m.cfg.Index, Reason: fmt.Sprintf("generator %d was refused: %v", m.cfg.Index, err)})
		return err
	}
	return nil
}

type memberInfo struct {
	Host string `json:"host"`
	Pid  int    `json:"pid"`
}

func (m *Member) key(kind string, i int) string { return m.prefix + kind + "/" + strconv.Itoa(i) }

// watch follows every key of the run from rev on, so each waiter sees
// what happened in order, even keys already gone.
func (m *Member) watch(ctx context.Context, rev int64) {
	// What exists already (the plan, members who joined first).
	if resp, err := m.cli.Get(ctx, m.prefix, clientv3.WithPrefix(), clientv3.WithRev(rev)); err == nil {
		for _, kv := range resp.Kvs {
			m.event(string(kv.Key), kv.Value, false)
		}
	}
	for wr := range m.cli.Watch(ctx, m.prefix, clientv3.WithPrefix(), clientv3.WithRev(rev+1)) {
		for _, ev := range wr.Events {
			m.event(string(ev.Kv.Key), ev.Kv.Value, ev.Type == clientv3.EventTypeDelete)
		}
	}
}

func (m *Member) event(key string, val []byte, deleted bool) {
	rel := strings.TrimPrefix(key, m.prefix)
	switch {
	case strings.HasPrefix(rel, "part/") && m.cfg.Index != 0:
		return // results are generator 0's to merge: others keep none
	case deleted:
		m.st.del(key)
		if i, ok := indexOf(rel, "member/"); ok {
			m.memberGone(i)
		}
		return
	case rel == "abort":
		var a AbortError
		if json.Unmarshal(val, &a) == nil {
			if a.Kind == Lost && a.Generator == m.cfg.Index {
				// Seen by this generator, the others' loss of it is its
				// being cut off (paused, or unreachable, past its lease).
				a.Reason = fmt.Sprintf("generator %d was cut off from the run: the others found it gone (%s)", m.cfg.Index, a.Reason)
			}
			m.abortLocal(&a)
		}
	case rel == "verdict":
		m.abortMu.Lock()
		m.finished = true
		m.abortMu.Unlock()
	}
	m.st.put(key, val)
}

// memberGone: generator i's lease ended. Before its result was in (or a
// verdict given) that is a lost generator: the run is aborted, naming it.
func (m *Member) memberGone(i int) {
	m.abortMu.Lock()
	finished := m.finished
	m.abortMu.Unlock()
	if _, ok := m.st.get(m.key("result", i)); ok || finished || i == m.cfg.Index {
		return
	}
	m.Abort(&AbortError{Kind: Lost, Generator: i, Reason: fmt.Sprintf("generator %d stopped reporting (its lease expired: killed, or cut off from the coordination etcd)", i)})
}

func indexOf(rel, kind string) (int, bool) {
	s, ok := strings.CutPrefix(rel, kind)
	if !ok || strings.Contains(s, "/") {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil
}

// Close leaves the run: its keys go with its lease.
func (m *Member) Close() error {
	if m.stop != nil {
		m.abortMu.Lock()
		m.finished = true
		m.abortMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, _ = m.cli.Revoke(ctx, m.lease)
		cancel()
		m.stop()
	}
	err := m.cli.Close()
	m.wg.Wait()
	return err
}

// errPlanMismatch: a generator was started with another config than
// generator 0.
var errPlanMismatch = errors.New("generators: this generator's config differs from generator 0's")

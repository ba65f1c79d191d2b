package compose

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	neturl "net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/redact"
)

// errNoPostgres is returned when the PostgreSQL server binaries are missing.
var errNoPostgres = errors.New("compose: PostgreSQL not installed (no /usr/lib/postgresql/*/bin/postgres): apt-get install postgresql (or scripts/deps.sh postgres)")

// PostgresOptions describe the local PostgreSQL to start.
type PostgresOptions struct {
	// MaxConnections is the server's max_connections; size it above the
	// workers (every worker holds a session).
	MaxConnections int       `json:"max_connections"`
	Log            io.Writer `json:"-"`
}

// Postgres is one local PostgreSQL server: a cluster initdb'd into a temp
// dir, run as the unprivileged `postgres` user when lockbench runs as root
// (the server refuses to run as root), listening on loopback only and
// asking every connection for a generated password (scram-sha-256); the
// lock runs as a role that is no superuser (postgres_auth.go).
type Postgres struct {
	Port  int
	proc  *process
	root  string
	owner *os.File // holds root's owner lock (tempdir.go)
	auth  postgresAuth
	guard *postgresGuard // ends the cluster's processes if lockbench dies
}

// postgresBin finds the newest installed server's bin dir.
func postgresBin() (string, error) {
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(m) == 0 {
		return "", errNoPostgres
	}
	sort.Slice(m, func(i, j int) bool { return version(m[i]) < version(m[j]) })
	return filepath.Dir(m[len(m)-1]), nil
}

func version(p string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
	return v
}

// serverCredential is who the server runs as: nil (ourselves) unless we
// are root, then the `postgres` user the Debian package creates.
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("compose: running as root and no `postgres` user to run PostgreSQL as: %w (apt-get install postgresql, or scripts/deps.sh postgres)", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// StartPostgres runs initdb into a temp dir and starts the server on a free
// loopback port, waiting until it accepts a connection.
func StartPostgres(ctx context.Context, opt PostgresOptions) (_ *Postgres, err error) {
	bin, err := postgresBin()
	if err != nil {
		return nil, err
	}
	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	if opt.MaxConnections <= 0 {
		opt.MaxConnections = 300
	}
	root, owner, err := ownedTempDir("lockbench-postgres-")
	if err != nil {
		return nil, err
	}
	p := &Postgres{root: root, owner: owner}
	defer func() {
		if err != nil {
			_ = p.Close()
		}
	}()
	if cred != nil {
		if err := os.Chown(root, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, fmt.Errorf("compose: %w", err)
		}
	}
	if p.auth, err = newPostgresAuth(); err != nil {
		return nil, err
	}
	pwfile, err := writePwfile(root, p.auth.super, cred)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(root, "data")
	var out bytes.Buffer
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", postgresSuperuser, "--pwfile", pwfile,
		"--auth=scram-sha-256", "--no-sync", "-E", "UTF8")
	initdb.Stdout, initdb.Stderr = &out, &out
	initdb.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: cred}
	err = initdb.Run()
	_ = os.Remove(pwfile)
	if err != nil {
		return nil, fmt.Errorf("compose: initdb: %w\n%s", err, out.String())
	}
	if p.guard, err = startPostgresGuard(root, data); err != nil {
		return nil, err
	}
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	var lastErr error
	for range 3 { // a free port can be taken before the server binds it
		if p.Port, err = procs.FreePort(); err != nil {
			return nil, err
		}
		argv := []string{filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(p.Port), "-h", "127.0.0.1", "-k", root,
			"-c", "max_connections=" + strconv.Itoa(opt.MaxConnections), "-c", "logging_collector=off"}
		p.proc = &process{name: "postgres :" + strconv.Itoa(p.Port), argv: argv, log: log, cred: cred}
		if err := p.proc.start(); err != nil {
			return nil, err
		}
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		lastErr = waitTCP(wctx, p.proc, func(ctx context.Context) error { return postgresPing(ctx, p.superURL()) })
		if lastErr == nil {
			lastErr = createLockRole(wctx, p.superURL(), p.auth.lock)
		}
		cancel()
		if lastErr == nil {
			return p, nil
		}
		_ = p.proc.kill()
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// URL is the connection URL of the lock's role and database, password
// included: never print or store it (redact knows the password).
func (p *Postgres) URL() string {
	return postgresURL(p.Port, postgresLockRole, p.auth.lock, postgresLockDB)
}

// superURL is the bootstrap superuser's, for setting the server up.
func (p *Postgres) superURL() string {
	return postgresURL(p.Port, postgresSuperuser, p.auth.super, "postgres")
}

// Addr is the server's host:port.
func (p *Postgres) Addr() string { return hostPort(p.Port) }

// SocketDir is the directory of the server's unix socket: only the
// server's user may enter it.
func (p *Postgres) SocketDir() string { return p.root }

// Pid is the postmaster's process id, 0 when stopped.
func (p *Postgres) Pid() int { return p.proc.Pid() }

// Kill crashes the server: SIGKILL to the postmaster and every backend,
// as a machine's crash would; the sessions and the
// advisory locks they held are gone. The cluster stays for Start.
func (p *Postgres) Kill() error { return p.proc.killTree() }

// Start restarts a killed server on the same port and cluster (it runs
// crash recovery) and waits until it accepts a connection.
func (p *Postgres) Start(ctx context.Context) error {
	var err error
	for {
		// The old backends may still hold the shared memory for a moment.
		if err = p.proc.restart(ctx, func(ctx context.Context) error { return postgresPing(ctx, p.superURL()) }); err == nil || !p.proc.exited() {
			return err
		}
		_ = p.proc.kill()
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Pause freezes the postmaster and every backend (SIGSTOP; each backend
// is its own process group): a server that stops answering, sessions and all. Resume thaws
// them (SIGCONT).
func (p *Postgres) Pause() error  { return p.proc.signalTree(syscall.SIGSTOP) }
func (p *Postgres) Resume() error { return p.proc.signalTree(syscall.SIGCONT) }

// PostgresHostPort is the host:port a postgres:// URL dials (a fault proxy
// stands in front of it), and PostgresURLVia the same URL dialling addr
// instead.
func PostgresHostPort(rawURL string) (string, error) {
	u, err := neturl.Parse(rawURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" || strings.Contains(u.Host, ",") {
		return "", fmt.Errorf("compose: postgres URL %q: want postgres://user@host:port/db (one host)", redact.String(rawURL))
	}
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), "5432"), nil
	}
	return u.Host, nil
}

// PostgresURLVia is rawURL dialling addr instead of its own host:port.
func PostgresURLVia(rawURL, addr string) (string, error) {
	if _, err := PostgresHostPort(rawURL); err != nil {
		return "", err
	}
	u, _ := neturl.Parse(rawURL)
	u.Host = addr
	return u.String(), nil
}

// Close stops the server (SIGTERM: smart shutdown, then SIGKILL) and
// removes the cluster.
func (p *Postgres) Close() error {
	var errs []error
	if p.proc != nil {
		_ = p.proc.signalTree(syscall.SIGCONT) // a paused server's backends too
		// SIGINT is PostgreSQL's fast shutdown: sessions are ended, not waited for.
		_ = p.proc.signal(syscall.SIGINT)
		errs = append(errs, p.proc.stop(5*time.Second))
	}
	p.guard.close()
	errs = append(errs, removeAll(p.root))
	if p.owner != nil {
		p.owner.Close()
	}
	return errors.Join(errs...)
}

// parsePostgresURL checks raw (a URL or key=value DSN) as pgx reads it
// and registers its password (from raw or PGPASSWORD) with redact. pgx's
// reason quotes a piece of the input, often of the password: the reason
// given is that of raw with its password masked, or, when that parses,
// the password's.
func parsePostgresURL(raw string) error {
	c, err := pgx.ParseConfig(raw)
	if err == nil {
		redact.Add(c.Password)
		return nil
	}
	if _, merr := pgx.ParseConfig(redact.Value(raw)); merr != nil {
		return errors.New(redact.String(merr.Error()))
	}
	return errors.New("the password is not readable: percent-escape / # ? @ : % and spaces in a URL, single-quote it in a DSN (with \\' and \\\\ inside)")
}

// postgresPing connects to url and runs SELECT 1.
func postgresPing(ctx context.Context, url string) error {
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	return c.Ping(ctx)
}

// upPostgres dials spec.PostgresURL or starts a server; Up calls it.
func (t *Topology) upPostgres(ctx context.Context, spec Spec) error {
	if spec.PostgresURL != "" {
		if err := parsePostgresURL(spec.PostgresURL); err != nil {
			return fielderr.Invalid("postgres_url", spec.PostgresURL, "%w: %v", ErrUnreachable, err)
		}
		pctx, cancel := context.WithTimeout(ctx, pingTimeout)
		err := postgresPing(pctx, spec.PostgresURL)
		cancel()
		if err != nil {
			return unreachable(ctx, "postgres_url", spec.PostgresURL, pingTimeout, err)
		}
		t.PostgresURL = spec.PostgresURL
		return nil
	}
	p, err := StartPostgres(ctx, spec.Postgres)
	if err != nil {
		return err
	}
	t.Postgres = p
	t.closers = append(t.closers, p)
	t.PostgresURL = p.URL()
	return nil
}

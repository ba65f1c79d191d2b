// Package clockshift runs a server's wall clock off by an offset that can
// change while it runs: the clock-jump fault. It builds a small LD_PRELOAD
// library (csrc/clockshift.c, embedded) with the machine's C compiler once per
// source version, and gives each server a file holding its offset.
//
// Debian's libfaketime would be the library of choice, but its 0.9.10
// deadlocks redis-server 7.0 at start (csrc/clockshift.c says why).
package clockshift

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

//go:embed csrc/clockshift.c
var source []byte

// envFile names the offset file for the library.
const envFile = "LOCKBENCH_CLOCKSHIFT_FILE"

// ErrNoCompiler: the library cannot be built on this machine.
var errNoCompiler = errors.New("clockshift: no C compiler (cc) to build the clock-jump preload library: apt-get install gcc libc6-dev (or scripts/deps.sh clockjump)")

var build struct {
	sync.Mutex
	path string
}

// Library returns the path of the built preload library, building it into
// the user cache directory the first time (keyed by the source's hash, so
// an upgrade rebuilds it).
func Library(ctx context.Context) (string, error) {
	build.Lock()
	defer build.Unlock()
	if build.path != "" {
		return build.path, nil
	}
	sum := sha256.Sum256(source)
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "lockbench")
	lib := filepath.Join(dir, "clockshift-"+hex.EncodeToString(sum[:6])+".so")
	if _, err := os.Stat(lib); err == nil {
		build.path = lib
		return lib, nil
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		if cc, err = exec.LookPath("gcc"); err != nil {
			return "", errNoCompiler
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("clockshift: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", fmt.Errorf("clockshift: %w", err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "clockshift.c")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return "", fmt.Errorf("clockshift: %w", err)
	}
	out := filepath.Join(tmp, "clockshift.so")
	cmd := exec.CommandContext(ctx, cc, "-O2", "-shared", "-fPIC", "-o", out, src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("clockshift: build with %s: %v: %s", cc, err, bytes.TrimSpace(stderr.Bytes()))
	}
	// Rename is atomic: a concurrent lockbench sees the old file or the new one.
	if err := os.Rename(out, lib); err != nil {
		return "", fmt.Errorf("clockshift: %w", err)
	}
	build.path = lib
	return lib, nil
}

// Clock is one server's offset file.
type Clock struct {
	path string
	lib  string
	mu   sync.Mutex
	off  time.Duration
}

// New creates the offset file at path (offset 0) for a server to be
// started with Env; lib is from Library.
func New(lib, path string) (*Clock, error) {
	c := &Clock{path: path, lib: lib}
	if err := os.WriteFile(path, make([]byte, 8), 0o644); err != nil {
		return nil, fmt.Errorf("clockshift: %w", err)
	}
	return c, nil
}

// Env is what the server's environment needs: the library preloaded and
// the offset file named.
func (c *Clock) Env() []string {
	return []string{"LD_PRELOAD=" + c.lib, envFile + "=" + c.path}
}

// Set moves the server's wall clock to real time + off, at once.
func (c *Clock) Set(off time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.set(off)
}

// Jump moves the clock by d from where it is.
func (c *Clock) Jump(d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.set(c.off + d)
}

func (c *Clock) set(off time.Duration) error {
	f, err := os.OpenFile(c.path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("clockshift: %w", err)
	}
	var b [8]byte
	binary.NativeEndian.PutUint64(b[:], uint64(int64(off)))
	// One aligned 8-byte write into the page the server has mapped.
	_, err = f.WriteAt(b[:], 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("clockshift: %w", err)
	}
	c.off = off
	return nil
}

// Offset is the current offset.
func (c *Clock) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.off
}

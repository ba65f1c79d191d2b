package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/redact"
)

// hostilePassword is a password holding every character that breaks a URL
// parser, a list split or a scanner looking for the authority's end
// (spaced adds a comma and a space); each use gets its own (n), so a
// password one case taught redact does not hide another's.
func hostilePassword(n int, spaced bool) string {
	pw := fmt.Sprintf("Sekr3t%d/w#x?y@z:%%41q", n)
	if spaced {
		pw += ",Qv9k xWm2"
	}
	return pw
}

// userinfo is u:pw as a URL carries it (a comma escaped too: --redis is
// a comma-separated list).
func userinfo(u, pw string) string {
	return strings.ReplaceAll(url.UserPassword(u, pw).String(), ",", "%2C")
}

// fragments are the secret and its alphanumeric runs of 4 or more: a
// message that shows part of a password shows one of them.
func fragments(secret string) []string {
	out := []string{secret}
	for _, f := range strings.FieldsFunc(secret, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if len(f) >= 4 {
			out = append(out, f)
		}
	}
	return out
}

// leakWatch records, while a test runs, every process command line and
// /metrics page that shows a secret: one of want, or any secret the
// process has learnt (redact.Known masks something).
type leakWatch struct {
	want    []string
	metrics string // http://host:port/metrics, "" for none
	mu      sync.Mutex
	leaks   map[string]string // where → what
	scans   int
	pages   int
	stop    chan struct{}
	done    chan struct{}
}

func watchLeaks(t *testing.T, metrics string, want ...string) *leakWatch {
	w := &leakWatch{want: want, metrics: metrics, leaks: map[string]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	t.Cleanup(w.end)
	return w
}

// add watches for more secrets too.
func (w *leakWatch) add(more ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.want = append(w.want, more...)
}

func (w *leakWatch) shows(s string) bool {
	if redact.Known(s) != s {
		return true
	}
	w.mu.Lock()
	want := w.want
	w.mu.Unlock()
	for _, x := range want {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func (w *leakWatch) loop() {
	defer close(w.done)
	for {
		cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range cmdlines {
			b, err := os.ReadFile(p)
			if err == nil && w.shows(string(b)) {
				w.note(p, strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
		if w.metrics != "" {
			if resp, err := http.Get(w.metrics); err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				w.mu.Lock()
				w.pages++
				w.mu.Unlock()
				if w.shows(string(b)) {
					w.note("/metrics", string(b))
				}
			}
		}
		w.mu.Lock()
		w.scans++
		w.mu.Unlock()
		select {
		case <-w.stop:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (w *leakWatch) note(where, what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.leaks[where] = what
}

func (w *leakWatch) end() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
}

// check ends the watch and fails t for every leak seen; it also fails a
// watch that looked too few times to mean anything.
func (w *leakWatch) check(t *testing.T) {
	t.Helper()
	w.end()
	for where, what := range w.leaks {
		t.Errorf("%s shows a secret: %.300s", where, what)
	}
	if w.scans < 3 || (w.metrics != "" && w.pages == 0) {
		t.Errorf("watched %d times, %d /metrics pages: too few to say anything", w.scans, w.pages)
	}
}

// showsIn fails t for every text (stdout, stderr, each file under dirs)
// that holds one of secrets.
func showsIn(t *testing.T, texts map[string]string, dirs []string, secrets ...string) {
	t.Helper()
	for _, d := range dirs {
		_ = filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				b, _ := os.ReadFile(p)
				texts[p] = string(b)
			}
			return nil
		})
	}
	for where, text := range texts {
		for _, s := range secrets {
			for _, f := range append(fragments(s), url.QueryEscape(s), url.PathEscape(s)) {
				if strings.Contains(text, f) {
					t.Errorf("%s shows %q of %q:\n%.400s", where, f, s, text)
				}
			}
		}
	}
}

// Package redact hides secrets in text lockbench shows or stores: the
// password of an endpoint in any of the forms a user gives one (a URL,
// malformed or not, a host:port list with user:password@, a PostgreSQL
// key=value DSN) and every secret value the process has learnt (Add), in
// the escaped forms outputs use. It imports nothing of lockbench.
//
// Redaction scans text rather than parsing URLs: a password holding
// / # ? @ : or % breaks url.Parse, and a message quoting an input the
// parser refused is exactly where a password must not appear.
package redact

import (
	"html"
	"io"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Mask stands in for a secret wherever one is shown.
const Mask = "xxxxx"

// minSecretLen is the shortest value Add registers: a shorter one
// ("redis", "test", "true") would mask ordinary text and mangle documents.
// Shorter passwords are still masked where they stand in an endpoint
// (String's syntax rules).
const minSecretLen = 8

var (
	mu       sync.Mutex
	secrets  = map[string]bool{}
	replacer atomic.Pointer[strings.Replacer]
)

// Add registers secret: from now on String and Writer mask it wherever it
// appears, raw or escaped as a URL, Go string, JSON or HTML would escape it.
func Add(secret string) {
	if len(secret) < minSecretLen {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if secrets[secret] {
		return
	}
	for _, v := range forms(secret) {
		secrets[v] = true
	}
	all := make([]string, 0, len(secrets))
	for s := range secrets {
		all = append(all, s)
	}
	// Longest first: a secret that contains another is masked whole.
	sort.Slice(all, func(i, j int) bool { return len(all[i]) > len(all[j]) || len(all[i]) == len(all[j]) && all[i] < all[j] })
	pairs := make([]string, 0, 2*len(all))
	for _, s := range all {
		pairs = append(pairs, s, Mask)
	}
	replacer.Store(strings.NewReplacer(pairs...))
}

// forms are the ways secret can appear in text lockbench writes.
func forms(secret string) []string {
	quoted := strconv.Quote(secret)
	out := []string{secret, url.QueryEscape(secret), url.PathEscape(secret), html.EscapeString(secret),
		quoted[1 : len(quoted)-1], strings.TrimPrefix(url.UserPassword("", secret).String(), ":")}
	var keep []string
	for _, f := range out {
		if len(f) >= minSecretLen {
			keep = append(keep, f)
		}
	}
	return keep
}

// Known masks the registered secrets in s, and nothing else: it keeps
// any document (JSON, CSV, HTML) well-formed.
func Known(s string) string {
	if r := replacer.Load(); r != nil {
		return r.Replace(s)
	}
	return s
}

// dsnKey is the start of a key=value password in a PostgreSQL DSN or a
// URL query; dsnNextKey is the start of the key after an unquoted value.
var (
	dsnKey     = regexp.MustCompile(`(?i)\b(?:ssl)?(?:password|passwd|pwd)\s*=\s*`)
	dsnNextKey = regexp.MustCompile(`\s+[A-Za-z_]+\s*=|&[A-Za-z_]+=|` + "`")
)

// dsnPasswords masks key=value passwords: a single-quoted value (with
// backslash escapes) whole; an unquoted one up to the next key=, & of a
// URL query or backquote (a DSN value cannot hold white space unquoted,
// but a password typed into one does), else to the end.
func dsnPasswords(s string) string {
	var b strings.Builder
	for {
		loc := dsnKey.FindStringIndex(s)
		if loc == nil {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:loc[1]])
		b.WriteString(Mask)
		s = s[loc[1]:]
		if strings.HasPrefix(s, "'") {
			i := 1
			for i < len(s) && s[i] != '\'' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			s = s[min(i+1, len(s)):]
			continue
		}
		if next := dsnNextKey.FindStringIndex(s); next != nil {
			s = s[next[0]:]
		} else {
			s = ""
		}
	}
}

// String is s with every password masked: the registered secrets (Known),
// key=value passwords, and the user-information password of every
// URL-like word (userinfo).
func String(s string) string {
	s = Known(s)
	if strings.Contains(s, "=") {
		s = dsnPasswords(s)
	}
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexFunc(s, isSpace)
		if i < 0 {
			b.WriteString(userinfo(s))
			break
		}
		j := strings.IndexFunc(s[i:], notSpace)
		if j < 0 {
			j = len(s) - i
		}
		b.WriteString(userinfo(s[:i]))
		b.WriteString(s[i : i+j])
		s = s[i+j:]
	}
	return b.String()
}

// Value is String for one value that is a single endpoint or DSN (a flag's
// value): its user information is masked as one word, so a password
// holding white space is masked whole.
func Value(s string) string {
	s = String(s)
	if strings.ContainsAny(s, " \t\r\n") {
		s = userinfo(s)
	}
	return s
}

func isSpace(r rune) bool  { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }
func notSpace(r rune) bool { return !isSpace(r) }

// schemePrefix is what may stand before a "://" that starts a URL within
// a word: a scheme, after quotes or brackets and a flag= at most. A "://"
// after anything else is inside a password.
var schemePrefix = regexp.MustCompile(`^[^A-Za-z0-9]*(?:[A-Za-z0-9_-]+=)?[A-Za-z][A-Za-z0-9+.-]*$`)

// userinfo masks the password in one word (no white space) up to its last
// '@': after "scheme://" everything from the user's ':' on; in a word
// without "://" (host:port lists, "redis:/:pw@h" and other typos) from
// the first ':' on. A word listing several endpoints is masked from the
// first password to the last '@': more than needed, never less.
func userinfo(w string) string {
	at := strings.LastIndexByte(w, '@')
	if at < 0 {
		return w
	}
	start := 0
	if i := strings.Index(w[:at], "://"); i >= 0 && schemePrefix.MatchString(w[:i]) {
		start = i + 3
	}
	c := strings.IndexByte(w[start:at], ':')
	if c < 0 {
		return w
	}
	c += start + 1
	return w[:c] + Mask + w[at:]
}

// Writer is w with Known applied to every write, for streams that carry
// documents (a secret is masked; nothing else changes). A write reports
// len(p) when the masked text was written whole. Writes are serialised:
// a stream several goroutines write to (progress lines, fault events)
// gets each write whole, one at a time, whatever w is.
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := replacer.Load()
	if r == nil {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, r.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// File is the *os.File under w, through Writer's masking: what a caller
// checks to know whether a stream is a terminal, a file or a pipe.
func File(w io.Writer) (*os.File, bool) {
	if m, ok := w.(*writer); ok {
		w = m.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

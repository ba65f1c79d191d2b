package redact

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// hostileSecrets hold every character that breaks a URL parser or a
// scanner that looks for the authority's end.
var hostileSecrets = []string{"p/w#x?y@z:%41q", "a@b@c", "x:/y:", "s#1", "q?r", "%zz%", "b64/Ab+Cd==", "o'neil\\s", `dq"x`, "As6:/G://J8"}

// TestString: a password given in every endpoint form, well-formed or
// not, is masked by its syntax alone (nothing registered).
func TestString(t *testing.T) {
	forms := []struct {
		name string
		f    func(pw string) string
	}{
		{"redis url", func(pw string) string { return "redis://:" + pw + "@127.0.0.1:6379/0" }},
		{"redis url with user", func(pw string) string { return "redis://alice:" + pw + "@h:1" }},
		{"rediss url", func(pw string) string { return "rediss://u:" + pw + "@h:1" }},
		{"unix url", func(pw string) string { return "unix://u:" + pw + "@/run/redis.sock" }},
		{"scheme typo one slash", func(pw string) string { return "redis:/:" + pw + "@h:1" }},
		{"scheme typo no slash", func(pw string) string { return "redis::" + pw + "@h:1" }},
		{"scheme typo three slashes", func(pw string) string { return "redis:///:" + pw + "@h:1" }},
		{"host port list", func(pw string) string { return "u:" + pw + "@h:1,u:" + pw + "@h:2" }},
		{"url list", func(pw string) string { return "redis://:" + pw + "@h:1,redis://:" + pw + "@h:2" }},
		{"etcd https", func(pw string) string { return "https://user:" + pw + "@h:2379" }},
		{"postgres url", func(pw string) string { return "postgres://u:" + pw + "@h:5432/db?sslmode=disable" }},
		{"postgres query", func(pw string) string { return "postgres://u@h/db?password=" + pw + "&sslmode=disable" }},
		{"dsn", func(pw string) string { return "host=h port=5432 user=u password=" + pw + " dbname=d" }},
		{"dsn quoted", func(pw string) string {
			return "host=h password='" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(pw) + "' dbname=d"
		}},
		{"dsn spaced", func(pw string) string { return "user=u password = " + pw }},
		{"dsn unquoted space", func(pw string) string { return "host=h password=" + pw + " two words dbname=d" }},
		{"dsn in backquotes", func(pw string) string { return "cannot parse `host=h password=" + pw + "`: bad" }},
		{"quoted in message", func(pw string) string { return `--redis "redis://:` + pw + `@h:1": bad port` }},
		{"backquoted in message", func(pw string) string { return "cannot parse `postgres://u:" + pw + "@h/db`: x" }},
		{"flag assignment", func(pw string) string { return "--redis=redis://:" + pw + "@h:1" }},
	}
	for _, f := range forms {
		for _, pw := range hostileSecrets {
			in := "lockbench: " + f.f(pw) + " trailing text"
			got := String(in)
			if strings.Contains(got, pw) {
				t.Errorf("%s %q: String = %q shows it", f.name, pw, got)
			}
			if strings.Contains(got, "two words") {
				t.Errorf("%s %q: String = %q shows the rest of an unquoted password", f.name, pw, got)
			}
			if !strings.Contains(got, Mask) || !strings.HasPrefix(got, "lockbench: ") ||
				!strings.HasSuffix(got, " trailing text") && !strings.HasPrefix(f.name, "dsn") {
				t.Errorf("%s %q: String = %q, want the mask and the text around kept", f.name, pw, got)
			}
		}
	}
}

// TestStringKeeps: text without a password passes unchanged.
func TestStringKeeps(t *testing.T) {
	for _, s := range []string{
		"read tcp 127.0.0.1:5000->127.0.0.1:6379: i/o timeout",
		"redis://alice@h:1/0", "h:1,h:2", "mail bob@example.com now", "",
		"dial tcp 127.0.0.1:1: connect: connection refused",
	} {
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
	}
}

// TestKnown: a registered secret is masked raw and in its escaped forms,
// by String, Known and Writer; other text is untouched.
func TestKnown(t *testing.T) {
	const pw = `Zq9/#?@:%"<&'\w`
	Add(pw)
	Add("ab") // too short: would mask ordinary words
	for _, s := range forms(pw) {
		in := "{\"k\":\"" + s + "\"} ab"
		if got := Known(in); got != "{\"k\":\""+Mask+"\"} ab" {
			t.Errorf("Known(%q) = %q", in, got)
		}
		if got := String(in); strings.Contains(got, s) {
			t.Errorf("String(%q) = %q", in, got)
		}
		var b bytes.Buffer
		n, err := Writer(&b).Write([]byte(in))
		if err != nil || n != len(in) || strings.Contains(b.String(), s) {
			t.Errorf("Writer(%q): %d, %v, %q", in, n, err, b.String())
		}
	}
}

// TestWriterConcurrentWrites: goroutines writing lines to one masking
// writer at once (progress and fault events on stderr) each get their
// line through whole and masked, even over a writer that is not safe for
// concurrent use (run with -race).
func TestWriterConcurrentWrites(t *testing.T) {
	Add("concurrent-secret-7f3a")
	var buf bytes.Buffer
	w := Writer(&buf)
	const writers, lines = 8, 200
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				fmt.Fprintf(w, "writer %d line %d concurrent-secret-7f3a\n", g, i)
			}
		}()
	}
	wg.Wait()
	got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines, want %d", len(got), writers*lines)
	}
	for _, l := range got {
		var g, i int
		if n, _ := fmt.Sscanf(l, "writer %d line %d "+Mask, &g, &i); n != 2 || !strings.HasSuffix(l, " "+Mask) {
			t.Fatalf("line %q: not one whole, masked write", l)
		}
	}
}

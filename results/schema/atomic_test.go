package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFileAtomic leaves nothing behind when it fails: a path that is a
// directory (the rename fails after the temp file was written) or in a
// missing directory.
func TestWriteFileAtomicLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{sub, filepath.Join(dir, "missing", "x.json")} {
		if err := WriteFileAtomic(path, []byte("{}")); err == nil {
			t.Fatalf("%s: written", path)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Name() != "sub" {
			t.Fatalf("%s: left %v", path, entries)
		}
	}
	if err := WriteFileAtomic(filepath.Join(dir, "ok.json"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ok.json")); err != nil || string(b) != "{}" {
		t.Fatalf("ok.json: %q %v", b, err)
	}
}

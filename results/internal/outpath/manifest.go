package outpath

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Names lockbench keeps in an output directory besides the result.
const (
	// ManifestName lists every file lockbench wrote into the directory,
	// with its SHA-256: what it may replace or remove there.
	ManifestName = ".lockbench-manifest.json"
	// LockName is flocked by the lockbench process writing the directory.
	LockName = ".lockbench.lock"
)

const manifestSchema = "lockbench/manifest/v1"

// manifest is the JSON of ManifestName. A name lists more than one hash
// only while a result is being replaced, so that whichever of the old or
// the new content a crash leaves is known as lockbench's own.
type manifest struct {
	Schema string              `json:"schema"`
	Files  map[string][]string `json:"files"`
}

// resultNames are the names a result may have in an output directory. A
// file of such a name that the manifest does not list (with its content)
// makes the directory refused: it may be overwritten or pruned otherwise.
func resultName(name string) bool {
	switch name {
	case "summary.json", "config.json", "sweep.json", ManifestName, LockName:
		return true
	}
	return strings.HasSuffix(name, ".hlog")
}

// readManifest reads dir's manifest: none is an empty one; anything else
// than lockbench's own (a link, another format) is a *ForeignError.
func readManifest(dir string) (manifest, error) {
	m := manifest{Schema: manifestSchema, Files: map[string][]string{}}
	p := filepath.Join(dir, ManifestName)
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	} else if err != nil {
		return m, err
	}
	if !st.Mode().IsRegular() {
		return m, &ForeignError{ManifestName}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return m, err
	}
	var got manifest
	if json.Unmarshal(b, &got) != nil || got.Schema != manifestSchema {
		return m, &ForeignError{ManifestName}
	}
	for name, hs := range got.Files {
		if filepath.Base(name) != name || name == "." || name == ".." {
			return m, &ForeignError{ManifestName}
		}
		m.Files[name] = hs
	}
	return m, nil
}

func (m manifest) write(dir string) error {
	for _, hs := range m.Files {
		sort.Strings(hs)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, ManifestName), append(b, '\n'))
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// owns reports whether dir/name is a regular file whose content the
// manifest lists; a missing file is (false, nil).
func (m manifest) owns(dir, name string) (bool, error) {
	p := filepath.Join(dir, name)
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() || len(m.Files[name]) == 0 {
		return false, &ForeignError{name}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false, err
	}
	h := sum(b)
	for _, want := range m.Files[name] {
		if want == h {
			return true, nil
		}
	}
	return false, &ForeignError{name}
}

// check refuses a directory holding a result-named file the manifest does
// not list with that content.
func (m manifest) check(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if n == ManifestName || n == LockName || !resultName(n) {
			continue
		}
		if _, err := m.owns(dir, n); err != nil {
			return err
		}
	}
	return nil
}

func validName(name string) error {
	if name == "" || filepath.Base(name) != name || name == "." || name == ".." || name == ManifestName || name == LockName {
		return fmt.Errorf("outpath: %q is not a result file name", name)
	}
	return nil
}

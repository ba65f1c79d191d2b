package backends_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/drivers/redsync"
	"github.com/lockbench/lockbench/drivers/single"
	"github.com/lockbench/lockbench/drivers/zklock"
	"github.com/lockbench/lockbench/internal/flagtag"
)

// TestSettingsJSON: a Spec's JSON holds each backend's settings under its
// key beside Spec's own fields, and decodes to the Spec it came from,
// byte for byte when written again; a Spec holding no settings writes
// none and decodes to none.
func TestSettingsJSON(t *testing.T) {
	changed := backends.DefaultSpec()
	backends.Update(&changed, func(c *etcdlock.Config) { c.Mode, c.Wait = etcdlock.ModeRPC, true })
	backends.Update(&changed, func(c *redsync.Config) { c.NoFailFast = true })
	for name, s := range map[string]backends.Spec{"defaults": backends.DefaultSpec(), "changed": changed, "none": {Backend: "redlock"}} {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var back backends.Spec
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, s) {
				t.Errorf("decoded %+v\nwant    %+v", back, s)
			}
			again, _ := json.Marshal(back)
			if !bytes.Equal(again, b) {
				t.Errorf("written again:\n%s\nwant\n%s", again, b)
			}
		})
	}
	var keys map[string]json.RawMessage
	b, _ := json.Marshal(changed)
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"backend": `"redlock"`, "redsync": `{"no_fail_fast":true}`, "single": `{"wait_replicas":0,"wait_timeout":100000000}`,
	} {
		if string(keys[key]) != want {
			t.Errorf("%q: %s, want %s", key, keys[key], want)
		}
	}
	for _, key := range []string{"etcd", "zookeeper", "postgres", "redlock", "client_tuning"} {
		if keys[key] == nil {
			t.Errorf("no %q in %s", key, b)
		}
	}
}

// TestSettingsDecodeOver: JSON decodes over the settings a Spec holds, as
// encoding/json decodes over a struct's fields: a key the JSON does not
// name keeps its value.
func TestSettingsDecodeOver(t *testing.T) {
	s := backends.DefaultSpec()
	if err := json.Unmarshal([]byte(`{"backend":"zookeeper","zookeeper":{"wait":true}}`), &s); err != nil {
		t.Fatal(err)
	}
	zc, def := backends.Settings[zklock.Config](s), zklock.DefaultConfig()
	if !zc.Wait || zc.WaitTimeout != def.WaitTimeout || zc.Prefix != def.Prefix {
		t.Errorf("zookeeper settings %+v, want the defaults with wait", zc)
	}
	if got := backends.Settings[single.Config](s).WaitTimeout; got != backends.Settings[single.Config](backends.DefaultSpec()).WaitTimeout {
		t.Errorf("single settings not in the JSON lost their default: wait_timeout %v", got)
	}
}

// TestSettingsCopiesAreIndependent: copies of a Spec share nothing a
// change reaches. compare builds a cell per baseline from one base, each
// baseline changing its own copy's settings; neither the base nor another
// cell may see it, nor a copy made before flags were bound see the flags.
func TestSettingsCopiesAreIndependent(t *testing.T) {
	etcd, _ := backends.Lookup("etcd")
	base := backends.DefaultSpec()
	plain, waiting := base, base
	etcd.Baselines["etcd-wait"](&waiting)
	etcd.Baselines["etcd"](&plain)
	if !backends.Settings[etcdlock.Config](waiting).Wait {
		t.Fatal("etcd-wait's cell does not wait")
	}
	if backends.Settings[etcdlock.Config](plain).Wait || backends.Settings[etcdlock.Config](base).Wait {
		t.Error("etcd-wait's change shows in another copy")
	}

	bound := base
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	flagtag.New(fs).Bind(&bound)
	if err := fs.Parse([]string{"--etcd-wait", "--wait-replicas", "2"}); err != nil {
		t.Fatal(err)
	}
	if !backends.Settings[etcdlock.Config](bound).Wait || backends.Settings[single.Config](bound).WaitReplicas != 2 {
		t.Error("flags did not set the bound Spec's settings")
	}
	if backends.Settings[etcdlock.Config](base).Wait || backends.Settings[single.Config](base).WaitReplicas != 0 {
		t.Error("flags bound to a copy changed the base")
	}

	decoded := base
	if err := json.Unmarshal([]byte(`{"backend":"etcd","etcd":{"mode":"rpc"}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	if backends.Settings[etcdlock.Config](base).Mode != etcdlock.ModeClient {
		t.Error("decoding into a copy changed the base")
	}
}

// TestSettingsOfUnregisteredType: asking for settings no backend
// registered is a programming error, not a zero value.
func TestSettingsOfUnregisteredType(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	backends.Settings[struct{ X int }](backends.DefaultSpec())
}

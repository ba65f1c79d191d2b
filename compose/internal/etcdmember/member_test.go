package etcdmember

import (
	"strings"
	"testing"
)

func TestConfigEmbed(t *testing.T) {
	ok := Config{Name: "m0", Dir: "/tmp/x", ClientURL: "http://127.0.0.1:1", PeerURL: "http://127.0.0.1:2"}
	cfg, err := ok.embed()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.UnsafeNoFsync {
		t.Error("fsync off: the baseline must pay for its WAL")
	}
	if cfg.InitialCluster != "m0=http://127.0.0.1:2" || cfg.InitialClusterToken == "" || cfg.LogLevel == "" {
		t.Errorf("defaults not filled: cluster %q token %q log %q", cfg.InitialCluster, cfg.InitialClusterToken, cfg.LogLevel)
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no dir", func(c *Config) { c.Dir = "" }, "Dir"},
		{"bad client", func(c *Config) { c.ClientURL = "127.0.0.1" }, "ClientURL"},
		{"https without cert", func(c *Config) { c.ClientURL = "https://127.0.0.1:1" }, "https"},
		{"cert without https", func(c *Config) { c.CertFile = "c.pem" }, "https"},
		{"bad peer", func(c *Config) { c.PeerURL = "" }, "PeerURL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			if _, err := c.Env(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %s", err, tc.want)
			}
		})
	}
	env, err := ok.Env()
	if err != nil || !strings.HasPrefix(env, envVar+"=") {
		t.Fatalf("Env() = %q, %v", env, err)
	}
}

// An exported EnvVar alone does not turn a program into a member: only the
// re-executed command line (Arg first) does.
func TestServeIfChildNeedsArg(t *testing.T) {
	env, err := Config{Name: "m0", Dir: t.TempDir(), ClientURL: "http://127.0.0.1:1", PeerURL: "http://127.0.0.1:2"}.Env()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(envVar, strings.TrimPrefix(env, envVar+"="))
	ServeIfChild() // would serve and exit the test binary if it did not check Arg
	if got := (Config{Dir: "/d"}).Argv("/bin/x"); len(got) != 3 || got[1] != Arg {
		t.Errorf("Argv = %q, want Arg second", got)
	}
}

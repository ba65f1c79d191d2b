package lab

import "testing"

// TestDurability: every backend's cell says where its lock state is kept,
// and servers lockbench did not start are not described as if it had.
func TestDurability(t *testing.T) {
	for _, tc := range []struct {
		name    string
		set     func(*Config)
		masters int
		want    string
	}{
		{"redlock", func(*Config) {}, 5, "memory ×5"},
		{"redlock everysec", func(c *Config) { c.Topology.Redis.Persistence = "everysec" }, 5, "AOF 1s ×5"},
		{"redlock always", func(c *Config) { c.Topology.Redis.Persistence = "always" }, 3, "AOF always ×3"},
		{"redlock external", func(c *Config) { c.Topology.RedisAddrs = []string{"a:1"} }, 1, "external"},
		{"rueidislock", func(c *Config) { c.Driver.Backend = "rueidislock" }, 1, "memory ×1"},
		{"single", func(c *Config) { c.Driver.Backend = "single" }, 1, "memory +replica"},
		{"etcd", func(c *Config) { c.Driver.Backend = "etcd" }, 3, "fsync raft×3"},
		{"etcd external", func(c *Config) { c.Driver.Backend, c.Topology.EtcdAddrs = "etcd", []string{"e:2379"} }, 1, "external"},
		{"zookeeper", func(c *Config) { c.Driver.Backend = "zookeeper" }, 1, "fsync ×1"},
		{"postgres", func(c *Config) { c.Driver.Backend = "postgres" }, 1, "memory ×1"},
		{"postgres external", func(c *Config) { c.Driver.Backend, c.Topology.PostgresURL = "postgres", "postgres://x" }, 1, "external"},
	} {
		c := DefaultConfig()
		tc.set(&c)
		if got := durability(c, tc.masters); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

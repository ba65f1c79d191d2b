package schema

// Server is one server's own facts as it reported them at the start of a
// run (INFO/CONFIG for Redis), and the warnings they raise for the lock's
// guarantees. Endpoint is redacted: it never carries a password.
type Server struct {
	Kind     string `json:"kind"` // redis | etcd
	Endpoint string `json:"endpoint"`
	Version  string `json:"version,omitempty"`
	Role     string `json:"role,omitempty"`
	TLS      bool   `json:"tls"`
	// TLSVerifyOff: the certificate was not checked (--tls-insecure-skip-verify).
	TLSVerifyOff    bool   `json:"tls_verify_off,omitempty"`
	MaxmemoryPolicy string `json:"maxmemory_policy,omitempty"`
	Maxmemory       int64  `json:"maxmemory"`
	AppendOnly      bool   `json:"appendonly"`
	// AppendFsync is "" when CONFIG GET is not allowed (a managed Redis, an ACL user).
	AppendFsync string   `json:"appendfsync,omitempty"`
	RDBSaves    bool     `json:"rdb_saves"` // a save schedule is configured
	IOThreads   int      `json:"io_threads,omitempty"`
	IOThreadsOn bool     `json:"io_threads_active"`
	Warnings    []string `json:"warnings,omitempty"`
}

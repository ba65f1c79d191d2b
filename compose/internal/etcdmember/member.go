// Package etcdmember runs one embedded etcd member in a process of its own.
//
// It owns the member's configuration (fsync on, the lowest bcrypt cost for
// the run's throw-away password) and the re-exec hook: compose starts a
// member by re-executing the current program with the member's Config in
// the environment, and that program's main (or a test's TestMain) calls
// ServeIfChild first, which serves the member and exits. So a 3-member
// cluster is three OS processes with their own WALs, as in production, none
// sharing the benchmark's heap or scheduler, and no test builds a binary.
//
// It imports only etcd's server and the standard library; it must not import
// compose (which imports it), drivers, workloads, results or cmd.
package etcdmember

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
)

// envVar carries a re-executed member's Config as JSON.
const envVar = "LOCKBENCH_ETCD_MEMBER"

// Arg is the re-executed process's first argument. With EnvVar it marks the
// process as a member (an exported EnvVar alone starts nothing), and it
// names the process in ps and to procs.Children.
const Arg = "lockbench-etcd-member"

// Argv is the command line of the member c re-executing bin: bin, Arg and
// the member's data dir (for whoever reads ps).
func (c Config) Argv(bin string) []string { return []string{bin, Arg, c.Dir} }

// Config describes one member.
type Config struct {
	Name      string `json:"name"`
	Dir       string `json:"dir"`        // data directory (WAL and snapshots)
	ClientURL string `json:"client_url"` // http(s)://127.0.0.1:PORT, listened on and advertised
	PeerURL   string `json:"peer_url"`
	Cluster   string `json:"cluster,omitempty"` // name=peerURL,... of every member; default this one
	Token     string `json:"token,omitempty"`   // initial cluster token; default "lockbench"
	LogLevel  string `json:"log_level,omitempty"`
	// Client TLS, with an https ClientURL.
	CertFile string `json:"cert_file,omitempty"`
	KeyFile  string `json:"key_file,omitempty"`
	CAFile   string `json:"ca_file,omitempty"`
	// Peer TLS, with an https PeerURL: peers must present a certificate
	// of PeerCAFile (the certificate serves as client and server).
	PeerCertFile string `json:"peer_cert_file,omitempty"`
	PeerKeyFile  string `json:"peer_key_file,omitempty"`
	PeerCAFile   string `json:"peer_ca_file,omitempty"`
}

// Env is the environment entry that makes a re-executed process serve c.
func (c Config) Env() (string, error) {
	if _, err := c.embed(); err != nil {
		return "", err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	return envVar + "=" + string(b), nil
}

// ServeIfChild serves the member described by EnvVar until SIGTERM or
// SIGINT and exits the process; unless os.Args[1] is Arg and EnvVar is set,
// it returns at once. Call it
// first in main and in TestMain of any package that starts etcd members.
func ServeIfChild() {
	v, ok := os.LookupEnv(envVar)
	if !ok || len(os.Args) < 2 || os.Args[1] != Arg {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	err := serveJSON(ctx, v)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd member:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func serveJSON(ctx context.Context, v string) error {
	var c Config
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		return fmt.Errorf("%s: %w", envVar, err)
	}
	return serve(ctx, c)
}

// serve runs the member until ctx ends (a clean close) or etcd fails.
func serve(ctx context.Context, c Config) error {
	cfg, err := c.embed()
	if err != nil {
		return err
	}
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	defer e.Close()
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		return fmt.Errorf("%s: %w", c.Name, err)
	case <-ctx.Done():
		return nil
	}
	select {
	case err := <-e.Err():
		return fmt.Errorf("%s: %w", c.Name, err)
	case <-ctx.Done(): // SIGTERM from compose: close cleanly
		return nil
	}
}

// embed validates c and maps it to etcd's configuration.
func (c Config) embed() (*embed.Config, error) {
	if c.Dir == "" {
		return nil, fmt.Errorf("etcd member %s: Dir: required", c.Name)
	}
	cu, err := url.Parse(c.ClientURL)
	if err != nil || cu.Host == "" {
		return nil, fmt.Errorf("etcd member %s: ClientURL %q: want http(s)://host:port", c.Name, c.ClientURL)
	}
	if (cu.Scheme == "https") != (c.CertFile != "") {
		return nil, fmt.Errorf("etcd member %s: ClientURL %q: https goes with CertFile and KeyFile", c.Name, c.ClientURL)
	}
	pu, err := url.Parse(c.PeerURL)
	if err != nil || pu.Host == "" {
		return nil, fmt.Errorf("etcd member %s: PeerURL %q: want http(s)://host:port", c.Name, c.PeerURL)
	}
	if (pu.Scheme == "https") != (c.PeerCertFile != "") {
		return nil, fmt.Errorf("etcd member %s: PeerURL %q: https goes with PeerCertFile and PeerKeyFile", c.Name, c.PeerURL)
	}
	cfg := embed.NewConfig()
	cfg.Name, cfg.Dir = c.Name, c.Dir
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*cu}, []url.URL{*cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*pu}, []url.URL{*pu}
	cfg.InitialCluster = c.Cluster
	if cfg.InitialCluster == "" {
		cfg.InitialCluster = c.Name + "=" + c.PeerURL
	}
	cfg.InitialClusterToken = c.Token
	if cfg.InitialClusterToken == "" {
		cfg.InitialClusterToken = "lockbench"
	}
	cfg.ClientTLSInfo = transport.TLSInfo{CertFile: c.CertFile, KeyFile: c.KeyFile, TrustedCAFile: c.CAFile}
	if c.PeerCertFile != "" {
		cfg.PeerTLSInfo = transport.TLSInfo{CertFile: c.PeerCertFile, KeyFile: c.PeerKeyFile, TrustedCAFile: c.PeerCAFile, ClientCertAuth: true}
	}
	// The local cluster's password is random and lives for one run: the
	// lowest bcrypt cost keeps each client's Authenticate from costing
	// the benchmark (and a race-built member) seconds of CPU.
	cfg.BcryptCost = 4 // bcrypt.MinCost
	cfg.ClusterState = embed.ClusterStateFlagNew
	cfg.LogLevel = c.LogLevel
	if cfg.LogLevel == "" {
		cfg.LogLevel = "error"
	}
	cfg.LogOutputs = []string{"stderr"}
	// fsync stays on (UnsafeNoFsync false): every Raft entry hits the WAL,
	// which is the cost a real cluster pays and the point of the baseline.
	cfg.UnsafeNoFsync = false
	cfg.AutoCompactionMode, cfg.AutoCompactionRetention = "periodic", "5m"
	return cfg, nil
}

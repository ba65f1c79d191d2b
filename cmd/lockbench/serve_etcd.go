package main

import (
	"fmt"
	"net/url"

	"github.com/spf13/cobra"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
)

// `lockbench serve etcd` runs one embedded etcd member in its own process.
// compose starts one per member (os.Executable() serve etcd ...), so a
// 3-member cluster is three OS processes with their own WALs, as in
// production, and none of them shares the benchmark's heap or scheduler.
// Hidden: users ask for members with --etcd-members, not by hand.
func init() { extraCommands = append(extraCommands, newServeCmd) }

func newServeCmd() *cobra.Command {
	serve := &cobra.Command{
		Use:    "serve",
		Short:  "Run a server lockbench starts for itself (internal)",
		Hidden: true,
		Args:   noArgs,
		RunE:   func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	serve.AddCommand(newServeEtcdCmd())
	return serve
}

type etcdMemberFlags struct {
	name, dir, clientURL, peerURL, cluster, token string
	logLevel                                      string
	certFile, keyFile, caFile                     string // client TLS (https --client-url)
}

func newServeEtcdCmd() *cobra.Command {
	var f etcdMemberFlags
	cmd := &cobra.Command{
		Use:   "etcd",
		Short: "Run one embedded etcd member until SIGTERM",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.config()
			if err != nil {
				return usageError{err}
			}
			e, err := embed.StartEtcd(cfg)
			if err != nil {
				return fmt.Errorf("serve etcd %s: %w", f.name, err)
			}
			defer e.Close()
			ctx := cmd.Context()
			select {
			case <-e.Server.ReadyNotify():
			case err := <-e.Err():
				return fmt.Errorf("serve etcd %s: %w", f.name, err)
			case <-ctx.Done():
				return nil
			}
			select {
			case err := <-e.Err():
				return fmt.Errorf("serve etcd %s: %w", f.name, err)
			case <-ctx.Done(): // SIGTERM from compose: close cleanly
				return nil
			}
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.name, "name", "m0", "member name")
	fs.StringVar(&f.dir, "data-dir", "", "data directory (WAL and snapshots)")
	fs.StringVar(&f.clientURL, "client-url", "", "client URL to listen on and advertise, http://127.0.0.1:PORT")
	fs.StringVar(&f.peerURL, "peer-url", "", "peer URL to listen on and advertise")
	fs.StringVar(&f.cluster, "initial-cluster", "", "name=peerURL,... of every member")
	fs.StringVar(&f.token, "cluster-token", "lockbench", "initial cluster token")
	fs.StringVar(&f.logLevel, "log-level", "error", "etcd log level")
	fs.StringVar(&f.certFile, "cert-file", "", "client TLS: the member's certificate (with an https --client-url)")
	fs.StringVar(&f.keyFile, "key-file", "", "client TLS: its key")
	fs.StringVar(&f.caFile, "trusted-ca-file", "", "client TLS: CA of client certificates")
	return cmd
}

func (f etcdMemberFlags) config() (*embed.Config, error) {
	if f.dir == "" {
		return nil, fmt.Errorf("--data-dir: required")
	}
	cu, err := url.Parse(f.clientURL)
	if err != nil || cu.Host == "" {
		return nil, fmt.Errorf("--client-url %q: want http(s)://host:port", f.clientURL)
	}
	if (cu.Scheme == "https") != (f.certFile != "") {
		return nil, fmt.Errorf("--client-url %q: https goes with --cert-file and --key-file", f.clientURL)
	}
	pu, err := url.Parse(f.peerURL)
	if err != nil || pu.Host == "" {
		return nil, fmt.Errorf("--peer-url %q: want http://host:port", f.peerURL)
	}
	cfg := embed.NewConfig()
	cfg.Name, cfg.Dir = f.name, f.dir
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*cu}, []url.URL{*cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*pu}, []url.URL{*pu}
	cfg.InitialCluster = f.cluster
	if cfg.InitialCluster == "" {
		cfg.InitialCluster = f.name + "=" + f.peerURL
	}
	cfg.InitialClusterToken = f.token
	cfg.ClientTLSInfo = transport.TLSInfo{CertFile: f.certFile, KeyFile: f.keyFile, TrustedCAFile: f.caFile}
	// The local cluster's password is random and lives for one run: the
	// lowest bcrypt cost keeps each client's Authenticate from costing
	// the benchmark (and a race-built member) seconds of CPU.
	cfg.BcryptCost = 4 // bcrypt.MinCost
	cfg.ClusterState = embed.ClusterStateFlagNew
	cfg.LogLevel = f.logLevel
	cfg.LogOutputs = []string{"stderr"}
	// fsync stays on (UnsafeNoFsync false): every Raft entry hits the WAL,
	// which is the cost a real cluster pays and the point of the baseline.
	cfg.UnsafeNoFsync = false
	cfg.AutoCompactionMode, cfg.AutoCompactionRetention = "periodic", "5m"
	return cfg, nil
}

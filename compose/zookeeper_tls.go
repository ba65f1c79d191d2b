package compose

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/internal/certs"
)

// zooKeeperTLSConf serves clients on port over TLS alone (Netty, which
// ZooKeeper's TLS needs), to clients with a certificate of the run's CA
// (ssl.clientAuth=need), and turns off what would answer without one: the
// plain client port (not configured), the AdminServer (Jetty) and every
// four-letter word ZooKeeper lets a whitelist turn off (the list is empty;
// `srvr` it always answers, but only past the TLS handshake).
// zooKeeperTLS wrote the files named here.
func zooKeeperTLSConf(root string, files certs.Files, port int) string {
	return fmt.Sprintf("secureClientPort=%d\nsecureClientPortAddress=127.0.0.1\n"+
		"serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory\n"+
		"ssl.keyStore.location=%s\nssl.keyStore.type=PEM\n"+
		"ssl.trustStore.location=%s\nssl.trustStore.type=PEM\nssl.clientAuth=need\n"+
		"admin.enableServer=false\n4lw.commands.whitelist=\n",
		port, filepath.Join(root, "keystore.pem"), files.CA)
}

// zooKeeperTLS makes the run's CA and certificates in root (certs), the
// server's key store (its key and certificate in one PEM file, 0600, as
// ZooKeeper reads it), and returns the client's TLS config.
func zooKeeperTLS(root string) (*tls.Config, certs.Files, error) {
	files, err := certs.Generate(root)
	if err != nil {
		return nil, files, err
	}
	key, err := os.ReadFile(files.ServerKey)
	if err != nil {
		return nil, files, fmt.Errorf("compose: %w", err)
	}
	cert, err := os.ReadFile(files.ServerCert)
	if err != nil {
		return nil, files, fmt.Errorf("compose: %w", err)
	}
	if err := os.WriteFile(filepath.Join(root, "keystore.pem"), append(key, cert...), 0o600); err != nil {
		return nil, files, fmt.Errorf("compose: %w", err)
	}
	client, err := tls.LoadX509KeyPair(files.ClientCert, files.ClientKey)
	if err != nil {
		return nil, files, fmt.Errorf("compose: zookeeper client certificate: %w", err)
	}
	ca, err := os.ReadFile(files.CA)
	if err != nil {
		return nil, files, fmt.Errorf("compose: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	return &tls.Config{Certificates: []tls.Certificate{client}, RootCAs: pool, MinVersion: tls.VersionTLS12}, files, nil
}

// TLS is the client TLS config of the server: its CA and the client
// certificate (a clone each call).
func (z *ZooKeeper) TLS() *tls.Config { return z.tls.Clone() }

// TLSFiles are the PEM files of the server's CA and client certificate,
// for a client in another process.
func (z *ZooKeeper) TLSFiles() certs.Files { return z.files }

// handshake completes a TLS handshake with the server: it listens.
func (z *ZooKeeper) handshake(ctx context.Context) error {
	d := tls.Dialer{Config: z.tls}
	c, err := d.DialContext(ctx, "tcp", z.Addr())
	if err != nil {
		return err
	}
	return c.Close()
}

// Ping opens an authenticated session with the server and closes it.
func (z *ZooKeeper) Ping(ctx context.Context) error {
	conn, err := zkSession(ctx, z.Addr(), z.Digest(), z.tls)
	if err != nil {
		return err
	}
	conn.Close()
	return nil
}

// zkTLSDialer dials ZooKeeper servers over TLS with c (a go-zookeeper
// Dialer); nil c: plain TCP.
func zkTLSDialer(c *tls.Config) zk.Dialer {
	if c == nil {
		return net.DialTimeout
	}
	return func(network, address string, timeout time.Duration) (net.Conn, error) {
		return tls.DialWithDialer(&net.Dialer{Timeout: timeout}, network, address, c)
	}
}

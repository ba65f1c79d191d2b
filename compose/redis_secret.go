package compose

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/certs"
	"github.com/lockbench/lockbench/results/redact"
)

// generatePassword is 128 random bits, hex, registered with redact so no
// message or output shows it.
func generatePassword() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("compose: password: %w", err)
	}
	pw := hex.EncodeToString(b)
	redact.Add(pw)
	return pw, nil
}

// writeSecretConf writes the settings that must not be on a command line
// (where any local user can read them in /proc) into a 0600 config file
// that redis-server reads first: the password (also as masterauth, which a
// replica, or a master the Sentinel demotes to one, authenticates with)
// and the TLS files.
func writeSecretConf(dir, password string, t *serverTLS) (string, error) {
	var b strings.Builder
	if password != "" {
		fmt.Fprintf(&b, "requirepass %s\nmasterauth %s\n", password, password)
	}
	if t != nil {
		fmt.Fprintf(&b, "tls-cert-file %q\ntls-key-file %q\ntls-ca-cert-file %q\n", t.CertFile, t.KeyFile, t.CAFile)
		if t.AuthClients {
			b.WriteString("tls-auth-clients yes\n")
		} else {
			b.WriteString("tls-auth-clients no\n")
		}
	}
	name := filepath.Join(dir, "lockbench.conf")
	if err := os.WriteFile(name, []byte(b.String()), 0o600); err != nil {
		return "", fmt.Errorf("compose: %w", err)
	}
	return name, nil
}

// TLSFrom is the TLS setup of local masters serving the certificates of
// f; mutual asks clients for theirs (and gives the client one).
func TLSFrom(f certs.Files, mutual bool) *serverTLS {
	t := &serverTLS{CertFile: f.ServerCert, KeyFile: f.ServerKey, CAFile: f.CA, AuthClients: mutual,
		Client: redisconn.TLSFiles{CACert: f.CA}}
	if mutual {
		t.Client.Cert, t.Client.Key = f.ClientCert, f.ClientKey
	}
	return t
}

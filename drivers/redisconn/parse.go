package redisconn

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Environment variables that give every --redis entry without its own
// credentials a user and password, so neither need be on a command line.
const (
	EnvUser     = "LOCKBENCH_REDIS_USER"
	EnvPassword = "LOCKBENCH_REDIS_PASSWORD"
)

// TLSFiles are the --tls-* flags: they apply to every rediss:// master.
type TLSFiles struct {
	CACert             string `json:"ca_cert,omitempty"` // PEM bundle to trust; default the system pool
	Cert               string `json:"cert,omitempty"`    // client certificate (mutual TLS)
	Key                string `json:"key,omitempty"`     // its key
	ServerName         string `json:"server_name,omitempty"`
	InsecureSkipVerify bool   `json:"insecure_skip_verify,omitempty"`
}

func (f TLSFiles) set() bool {
	return f.CACert != "" || f.Cert != "" || f.Key != "" || f.ServerName != "" || f.InsecureSkipVerify
}

// Config builds the TLS client configuration the files describe.
func (f TLSFiles) Config() (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName, InsecureSkipVerify: f.InsecureSkipVerify} //nolint:gosec // the flag asks for it and the output says so
	if f.CACert != "" {
		pem, err := os.ReadFile(f.CACert)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca-cert %q: %v", f.CACert, pathErr(err))
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-ca-cert %q: no PEM certificate in it", f.CACert)
		}
	}
	switch {
	case f.Cert != "" && f.Key != "":
		pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, fmt.Errorf("--tls-cert %q / --tls-key %q: %v", f.Cert, f.Key, err)
		}
		c.Certificates = []tls.Certificate{pair}
	case f.Cert != "":
		return nil, fmt.Errorf("--tls-cert %q: needs --tls-key", f.Cert)
	case f.Key != "":
		return nil, fmt.Errorf("--tls-key %q: needs --tls-cert", f.Key)
	}
	return c, nil
}

func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Auth is what applies to every --redis entry that does not say it itself.
type Auth struct {
	Username string   `json:"username,omitempty"`
	Password string   `json:"-"`
	TLS      TLSFiles `json:"tls"`
}

// LoadAuth fills a's user and password from the environment and from
// passwordFile ("" for none; its trailing newline is dropped). A password
// from both is refused: which one wins would be a guess.
func (a *Auth) LoadAuth(passwordFile string) error {
	if a.Username == "" {
		a.Username = os.Getenv(EnvUser)
	}
	env := os.Getenv(EnvPassword)
	if passwordFile != "" {
		b, err := os.ReadFile(passwordFile)
		if err != nil {
			return fmt.Errorf("--redis-password-file %q: %v", passwordFile, pathErr(err))
		}
		if env != "" {
			return fmt.Errorf("--redis-password-file %q: %s is set too; give one", passwordFile, EnvPassword)
		}
		a.Password = strings.TrimRight(string(b), "\r\n")
		if a.Password == "" {
			return fmt.Errorf("--redis-password-file %q: empty", passwordFile)
		}
		return nil
	}
	if a.Password == "" {
		a.Password = env
	}
	return nil
}

// Parse reads the entries of flag (--redis): host:port,
// redis://[user[:password]@]host:port[/db] or rediss://… (TLS). Spaces
// around an entry are dropped; an empty entry, a master listed twice or an
// unknown scheme is an error naming the (redacted) entry.
func Parse(flag string, entries []string, a Auth) ([]Endpoint, error) {
	var tlsBase *tls.Config
	if a.TLS.set() {
		var err error
		if tlsBase, err = a.TLS.Config(); err != nil {
			return nil, err
		}
	}
	out := make([]Endpoint, 0, len(entries))
	seen := map[string]bool{}
	anyTLS := false
	for _, raw := range entries {
		entry := strings.TrimSpace(raw)
		e, err := parseOne(entry)
		if err != nil {
			return nil, fmt.Errorf("--%s %q: %v", flag, RedactURL(raw), err)
		}
		if e.Password == "" { // redis://alice@host takes its password from the environment
			if e.Username == "" {
				e.Username = a.Username
			}
			e.Password = a.Password
		}
		if e.TLS != nil {
			anyTLS = true
			if tlsBase != nil {
				c := tlsBase.Clone()
				if c.ServerName == "" {
					c.ServerName = e.TLS.ServerName
				}
				e.TLS = c
			}
		}
		if seen[e.Addr] {
			return nil, fmt.Errorf("--%s %q: listed twice", flag, RedactURL(entry))
		}
		seen[e.Addr] = true
		out = append(out, e)
	}
	if tlsBase != nil && !anyTLS {
		return nil, fmt.Errorf("--tls-*: no rediss:// master in --%s (TLS flags apply to rediss:// entries)", flag)
	}
	return out, nil
}

func parseOne(entry string) (Endpoint, error) {
	if entry == "" {
		return Endpoint{}, errors.New("empty entry")
	}
	if !strings.Contains(entry, "://") {
		host, port, err := net.SplitHostPort(entry)
		if err != nil || host == "" {
			return Endpoint{}, errors.New("want host:port, redis://[user[:password]@]host:port[/db] or rediss://…")
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return Endpoint{}, fmt.Errorf("bad port %q", port)
		}
		return Endpoint{Addr: entry}, nil
	}
	u, err := url.Parse(entry)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // url.Error quotes the whole URL, password and all
			err = ue.Err
		}
		return Endpoint{}, err
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return Endpoint{}, fmt.Errorf("scheme %q: want redis:// or rediss://", u.Scheme)
	}
	if u.Hostname() == "" || u.Port() == "" {
		return Endpoint{}, errors.New("want host and port")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return Endpoint{}, errors.New("no query or fragment: client settings are lockbench's")
	}
	o, err := redis.ParseURL(entry)
	if err != nil {
		return Endpoint{}, err
	}
	if o.DB < 0 {
		return Endpoint{}, fmt.Errorf("database %d: must not be negative", o.DB)
	}
	return Endpoint{Addr: o.Addr, Username: o.Username, Password: o.Password, DB: o.DB, TLS: o.TLSConfig}, nil
}

// RedactURL masks the password of a URL-like string that may not parse:
// everything between the user's ':' and the last '@' of the authority.
func RedactURL(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return s
	}
	user := rest[:at]
	if c := strings.Index(user, ":"); c >= 0 {
		user = user[:c+1] + Mask
	}
	return s[:i+3] + user + rest[at:]
}

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
	"unicode"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/redact"
)

// Environment variables that give every --redis entry without its own
// credentials a user and password, so neither need be on a command line.
const (
	EnvUser     = "LOCKBENCH_REDIS_USER"
	EnvPassword = "LOCKBENCH_REDIS_PASSWORD"
)

// TLSFiles are the --tls-* flags: they apply to every rediss:// master.
type TLSFiles struct {
	CACert             string `json:"ca_cert,omitempty" flag:"tls-ca-cert" help:"rediss:// masters: trust the CA certificates in this PEM file (default: the system's)"` // PEM bundle to trust; default the system pool
	Cert               string `json:"cert,omitempty" flag:"tls-cert" help:"rediss:// masters: client certificate (PEM) for mutual TLS"`                                  // client certificate (mutual TLS)
	Key                string `json:"key,omitempty" flag:"tls-key" help:"rediss:// masters: the client certificate's key (PEM)"`                                         // its key
	ServerName         string `json:"server_name,omitempty" flag:"tls-server-name" help:"rediss:// masters: name to verify the certificate against (default: the host of each URL)"`
	InsecureSkipVerify bool   `json:"insecure_skip_verify,omitempty" flag:"tls-insecure-skip-verify" help:"rediss:// masters: do NOT verify the certificate (marked in every output)"`
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
			return nil, fielderr.Invalid("ca_cert", f.CACert, "%v", pathErr(err))
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fielderr.Invalid("ca_cert", f.CACert, "no PEM certificate in it")
		}
	}
	switch {
	case f.Cert != "" && f.Key != "":
		pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, &fielderr.Error{Field: "cert", Value: fmt.Sprintf("%q", f.Cert), Err: fielderr.Invalid("key", f.Key, "%v", err)}
		}
		c.Certificates = []tls.Certificate{pair}
	case f.Cert != "":
		return nil, &fielderr.Error{Field: "cert", Value: fmt.Sprintf("%q", f.Cert), Err: &fielderr.Error{Field: "key", Err: errors.New("is needed too")}}
	case f.Key != "":
		return nil, &fielderr.Error{Field: "key", Value: fmt.Sprintf("%q", f.Key), Err: &fielderr.Error{Field: "cert", Err: errors.New("is needed too")}}
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
	TLS      TLSFiles `json:"tls" flag:"tls-*"`
	// PasswordFile is where the password is read from (LoadAuth's
	// passwordFile), never serialised.
	PasswordFile string `json:"-" flag:"redis-password-file" value:"FILE" help:"read the masters' password from FILE (else LOCKBENCH_REDIS_PASSWORD; the user from LOCKBENCH_REDIS_USER)" applies:"redis,external"`
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
			return fielderr.Invalid("password_file", passwordFile, "%v", pathErr(err))
		}
		if env != "" {
			return fielderr.Invalid("password_file", passwordFile, "%s is set too; give one", EnvPassword)
		}
		a.Password = strings.TrimRight(string(b), "\r\n")
		redact.Add(a.Password)
		if a.Password == "" {
			return fielderr.Invalid("password_file", passwordFile, "empty")
		}
		return nil
	}
	if a.Password == "" {
		a.Password = env
	}
	redact.Add(a.Password)
	return nil
}

// Parse reads the masters' entries: host:port,
// redis://[user[:password]@]host:port[/db] or rediss://… (TLS). Spaces
// around an entry are dropped; an empty entry, a master listed twice or an
// unknown scheme is an error naming the entry (shown redacted, as every
// FieldError value is). Errors are
// *fielderr.Error named as Resolve's.
func Parse(entries []string, a Auth) ([]Endpoint, error) {
	var tlsBase *tls.Config
	if a.TLS.set() {
		var err error
		if tlsBase, err = a.TLS.Config(); err != nil {
			return nil, fielderr.Within("redis_auth.tls", err)
		}
	}
	if i := splitPassword(entries); i > 0 {
		return nil, fielderr.Invalid("redis_addrs", strings.Join(entries[i-1:i+1], ","),
			"a password holding a comma must be percent-escaped (%%2C) or the entry quoted as a CSV field")
	}
	out := make([]Endpoint, 0, len(entries))
	seen := map[string]bool{}
	anyTLS := false
	for _, raw := range entries {
		entry := strings.TrimSpace(raw)
		e, err := parseOne(entry)
		if err != nil {
			return nil, fielderr.Invalid("redis_addrs", raw, "%v", err)
		}
		if e.Password == "" { // redis://alice@host takes its password from the environment
			if e.Username == "" {
				e.Username = a.Username
			}
			e.Password = a.Password
		}
		redact.Add(e.Password)
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
			return nil, fielderr.Invalid("redis_addrs", entry, "listed twice")
		}
		seen[e.Addr] = true
		out = append(out, e)
	}
	if tlsBase != nil && !anyTLS {
		return nil, &fielderr.Error{Field: "redis_auth.tls", Err: errors.New("apply to rediss:// masters, and none is given")}
	}
	return out, nil
}

// splitPassword is the index of an entry that looks like the rest of a
// password the comma split cut in two (user information with no scheme,
// a form no entry takes, after another entry), 0 for none.
func splitPassword(entries []string) int {
	for i := 1; i < len(entries); i++ {
		if e := strings.TrimSpace(entries[i]); !strings.Contains(e, "://") && strings.Contains(e, "@") {
			return i
		}
	}
	return 0
}

func parseOne(entry string) (Endpoint, error) {
	if entry == "" {
		return Endpoint{}, errors.New("empty entry")
	}
	if strings.ContainsFunc(entry, unicode.IsSpace) {
		return Endpoint{}, errors.New("contains a space or a line break: separate masters with commas, and percent-escape a space in a password (%20)")
	}
	if !strings.Contains(entry, "://") {
		host, port, err := net.SplitHostPort(entry)
		if err != nil || host == "" {
			return Endpoint{}, errors.New("want host:port, redis://[user[:password]@]host:port[/db] or rediss://…")
		}
		if err := checkHost(host); err != nil {
			return Endpoint{}, err
		}
		p, err := strconv.Atoi(port)
		if err != nil || p < 1 || p > 65535 {
			return Endpoint{}, fmt.Errorf("bad port %q", port)
		}
		// One spelling per address (port 06379 is 6379), so a master
		// listed twice is seen as such.
		return Endpoint{Addr: net.JoinHostPort(host, strconv.Itoa(p))}, nil
	}
	u, err := url.Parse(entry)
	if err != nil {
		// url.Parse's reason quotes a piece of the input, often of the
		// password ("invalid port \":secret\" after host"): the reason
		// given is that of the entry with its password masked, or, when
		// that parses, the password's.
		masked := redact.Value(entry)
		if _, merr := url.Parse(masked); merr != nil || masked == entry {
			if merr == nil {
				merr = err
			}
			var ue *url.Error
			if errors.As(merr, &ue) { // url.Error quotes the whole URL
				merr = ue.Err
			}
			return Endpoint{}, merr
		}
		return Endpoint{}, errors.New("not a URL: percent-escape / # ? @ : % and spaces in a user or password (%2F %23 %3F %40 %3A %25 %20)")
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return Endpoint{}, fmt.Errorf("scheme %q: want redis:// or rediss://", u.Scheme)
	}
	if u.Hostname() == "" || u.Port() == "" {
		return Endpoint{}, errors.New("want host and port")
	}
	if err := checkHost(u.Hostname()); err != nil {
		return Endpoint{}, err
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
	addr := o.Addr
	if p, err := strconv.Atoi(u.Port()); err == nil && p >= 1 && p <= 65535 {
		addr = net.JoinHostPort(u.Hostname(), strconv.Itoa(p)) // port 06379 is 6379
	} else {
		return Endpoint{}, fmt.Errorf("bad port %q", u.Port())
	}
	return Endpoint{Addr: addr, Username: o.Username, Password: o.Password, DB: o.DB, TLS: o.TLSConfig}, nil
}

// checkHost accepts an IP address or a host name (letters, digits, '-',
// '_' and '.'): anything else would name no server, and would not survive
// being written into a URL and read back.
func checkHost(host string) error {
	if net.ParseIP(host) != nil {
		return nil
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("host %q: want an IP address or a host name", host)
		}
	}
	return nil
}

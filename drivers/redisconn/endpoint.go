// Package redisconn is how lockbench reaches one Redis master: address,
// user, password, database and TLS, parsed from the address forms a
// topology's redis_addrs holds with the client libraries' own URL parsers,
// and shown only redacted. Bad input is a *fielderr.Error naming the config
// field; it imports no other lockbench package than results/fielderr and
// results/redact.
package redisconn

import (
	"crypto/tls"
	"net"
	"net/url"
	"strconv"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"github.com/lockbench/lockbench/results/redact"
)

// Mask stands in for a password wherever an endpoint is shown.
const Mask = redact.Mask

// Endpoint is one master. Its password never leaves memory: String,
// MarshalText and every error of this package show it as Mask.
type Endpoint struct {
	Addr     string // host:port
	Username string // ACL user; "" is the default user
	Password string
	DB       int
	TLS      *tls.Config // nil: plain TCP
}

// Sentinel is where one master is: a Sentinel set (MasterName +
// Sentinels) or one plain address. Password authenticates to the master
// and replica and, when set, to the Sentinels too.
type Sentinel struct {
	MasterName string
	Sentinels  []string
	Addr       string
	Password   string
}

// Plain is the endpoints of unauthenticated plain-TCP masters.
func Plain(addrs ...string) []Endpoint {
	out := make([]Endpoint, len(addrs))
	for i, a := range addrs {
		out[i] = Endpoint{Addr: a}
	}
	return out
}

// Addrs lists the endpoints' host:port.
func Addrs(es []Endpoint) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Addr
	}
	return out
}

// Redacted lists the endpoints as shown to users.
func Redacted(es []Endpoint) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

// url is the endpoint as a URL; with secret false the password is masked.
func (e Endpoint) url(secret bool) *url.URL {
	u := &url.URL{Scheme: "redis", Host: e.Addr}
	if e.TLS != nil {
		u.Scheme = "rediss"
	}
	switch {
	case e.Password != "" && secret:
		u.User = url.UserPassword(e.Username, e.Password)
	case e.Password != "":
		u.User = url.UserPassword(e.Username, Mask)
	case e.Username != "":
		u.User = url.User(e.Username)
	}
	if e.DB != 0 {
		u.Path = "/" + strconv.Itoa(e.DB)
	}
	return u
}

// String is the redacted URL: redis://user:xxxxx@host:port/db, and plain
// host:port for a master with no credentials, TLS or database.
func (e Endpoint) String() string {
	if e.TLS == nil && e.Username == "" && e.Password == "" && e.DB == 0 {
		return e.Addr
	}
	s := e.url(false).String()
	if e.TLS != nil && e.TLS.InsecureSkipVerify {
		s += " (TLS VERIFICATION OFF)"
	}
	return s
}

// MarshalText is the redacted form, so JSON never carries the password.
func (e Endpoint) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// Secure reports whether the master is reached over TLS.
func (e Endpoint) Secure() bool { return e.TLS != nil }

// Host is the host part of Addr.
func (e Endpoint) Host() string {
	h, _, err := net.SplitHostPort(e.Addr)
	if err != nil {
		return e.Addr
	}
	return h
}

// Port is the port part of Addr.
func (e Endpoint) Port() string {
	_, p, _ := net.SplitHostPort(e.Addr)
	return p
}

// Via is the same master reached through addr (a TCP proxy): credentials
// and TLS pass through, and the certificate is still checked against the
// master's own name.
func (e Endpoint) Via(addr string) Endpoint {
	if e.TLS != nil && e.TLS.ServerName == "" {
		e.TLS = e.TLS.Clone()
		e.TLS.ServerName = e.Host()
	}
	e.Addr = addr
	return e
}

// GoRedis is the go-redis options for the endpoint (go-redis's ParseURL on
// its URL, TLS set here): callers add pool and timeout settings.
func (e Endpoint) GoRedis() *redis.Options {
	o, err := redis.ParseURL(e.url(true).String())
	if err != nil { // an Endpoint is built from a parsed URL; keep the fields
		o = &redis.Options{Addr: e.Addr, Username: e.Username, Password: e.Password, DB: e.DB}
	}
	o.TLSConfig = e.tlsConfig()
	return o
}

// Rueidis is the rueidis options for the endpoint (rueidis's ParseURL on
// its URL, TLS set here): callers add pool and pipelining settings.
func (e Endpoint) Rueidis() rueidis.ClientOption {
	o, err := rueidis.ParseURL(e.url(true).String())
	if err != nil {
		o = rueidis.ClientOption{InitAddress: []string{e.Addr}, Username: e.Username, Password: e.Password, SelectDB: e.DB}
	}
	o.TLSConfig = e.tlsConfig()
	return o
}

func (e Endpoint) tlsConfig() *tls.Config {
	if e.TLS == nil {
		return nil
	}
	c := e.TLS.Clone()
	if c.ServerName == "" {
		c.ServerName = e.Host()
	}
	return c
}

// SecretURL is the URL with the password in clear, for a child process or
// a test that must be given it. Never print or store it.
func (e Endpoint) SecretURL() string { return e.url(true).String() }

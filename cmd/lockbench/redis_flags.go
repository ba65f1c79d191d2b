package main

import (
	"encoding/csv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/redisconn"
)

// redisHelp is the --redis flag's help, shared by every command that dials masters.
const redisHelp = "external Redis masters, comma-separated: host:port, redis://[user[:password]@]host:port[/db] or rediss://… (TLS); " +
	"a password is better given by " + redisconn.EnvPassword + " or --redis-password-file (default: start --masters local redis-server processes)"

// bindRedisAuth registers the credentials and TLS flags of --redis.
func bindRedisAuth(fs *pflag.FlagSet, c *RunConfig) {
	a := &c.Topology.RedisAuth
	fs.StringVar(&c.RedisPasswordFile, "redis-password-file", "", "read the masters' password from FILE (else "+redisconn.EnvPassword+"; the user from "+redisconn.EnvUser+")")
	fs.StringVar(&a.TLS.CACert, "tls-ca-cert", "", "rediss:// masters: trust the CA certificates in this PEM file (default: the system's)")
	fs.StringVar(&a.TLS.Cert, "tls-cert", "", "rediss:// masters: client certificate (PEM) for mutual TLS")
	fs.StringVar(&a.TLS.Key, "tls-key", "", "rediss:// masters: the client certificate's key (PEM)")
	fs.StringVar(&a.TLS.ServerName, "tls-server-name", "", "rediss:// masters: name to verify the certificate against (default: the host of each URL)")
	fs.BoolVar(&a.TLS.InsecureSkipVerify, "tls-insecure-skip-verify", false, "rediss:// masters: do NOT verify the certificate (marked in every output)")
}

// redisList is --redis: comma-separated like pflag's string slices (CSV,
// so a password with a comma can be quoted), but it keeps empty and blank
// entries for validation to refuse by name (a StringSlice drops --redis ""
// and would silently start local masters instead), never fails (pflag
// would print the raw value, password and all), and shows itself redacted.
type redisList struct{ list *[]string }

func (r redisList) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		*r.list = append(*r.list, s)
		return nil
	}
	rec, err := csv.NewReader(strings.NewReader(s)).Read()
	if err != nil { // a stray quote in a password: pflag would print the raw value with its error
		rec = strings.Split(s, ",")
	}
	*r.list = append(*r.list, rec...)
	return nil
}

func (r redisList) String() string {
	if r.list == nil {
		return ""
	}
	out := make([]string, len(*r.list))
	for i, e := range *r.list {
		out[i] = redisconn.RedactURL(e)
	}
	return strings.Join(out, ",")
}

func (redisList) Type() string { return "urls" }

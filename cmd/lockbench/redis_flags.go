package main

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results"
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

// validateRedis parses --redis once (a copy of a validated config keeps
// its parsed masters) and leaves only redacted entries where config.json
// can see them.
func (c *RunConfig) validateRedis() error {
	t := &c.Topology
	if len(t.RedisMasters) > 0 {
		return nil
	}
	if len(t.RedisAddrs) == 0 {
		if t.RedisAuth.TLS != (redisconn.TLSFiles{}) {
			return usagef("--tls-*: only with rediss:// masters in --redis (local masters run without TLS)")
		}
		return nil
	}
	if err := t.RedisAuth.LoadAuth(c.RedisPasswordFile); err != nil {
		return usageError{err}
	}
	masters, err := redisconn.Parse("redis", t.RedisAddrs, t.RedisAuth)
	if err != nil {
		return usageError{err}
	}
	t.RedisMasters = masters
	t.RedisAddrs = redisconn.Redacted(masters)
	t.Redis.Masters = len(masters)
	return nil
}

// withServers adds topo's servers' facts to a summary's and prints their
// warnings once each (unless quiet), naming how many masters share one.
func withServers(list []results.Server, topo *compose.Topology, quiet bool) []results.Server {
	list = append(list, topo.Servers...)
	if quiet {
		return list
	}
	count := map[string]int{}
	var order []string
	for _, s := range topo.Servers {
		for _, w := range s.Warnings {
			if count[w] == 0 {
				order = append(order, w)
			}
			count[w]++
		}
	}
	for _, w := range order {
		fmt.Fprintf(os.Stderr, "lockbench: warning: %d of %d masters: %s\n", count[w], len(topo.Servers), w)
	}
	return list
}

package redisconn

import (
	"errors"

	"github.com/lockbench/lockbench/results/fielderr"
)

// Resolve is the external masters a config names: entries with a's
// credentials, the password from passwordFile or the environment
// (LoadAuth); a keeps what was loaded. No entries is no external masters,
// and then TLS files are refused: local masters run without TLS.
//
// Errors are *fielderr.Error named as the topology section that holds
// the masters serialises them (compose.Spec): "redis_addrs" for an entry,
// "redis_auth.password_file", "redis_auth.tls" and "redis_auth.tls.ca_cert"
// (cert, key) for the credentials.
func Resolve(entries []string, a *Auth, passwordFile string) ([]Endpoint, error) {
	if len(entries) == 0 {
		if a.TLS != (TLSFiles{}) {
			return nil, &fielderr.Error{Field: "redis_auth.tls", Err: errors.New("need rediss:// masters (local masters run without TLS)")}
		}
		return nil, nil
	}
	if err := a.LoadAuth(passwordFile); err != nil {
		return nil, fielderr.Within("redis_auth", err)
	}
	return Parse(entries, *a)
}

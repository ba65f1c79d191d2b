package etcdconn

import (
	"errors"
	"os"
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/redact"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Resolve checks a against the cluster it is for and completes it.
// endpoints are an external cluster's (none: the local one, which has
// auth on and which secure asks to serve over TLS); they lose http(s):// in place and
// https:// turns TLS on, as TLS files do; a user's password comes from
// EnvPassword (and is registered with redact). An endpoint carrying
// user:password@ is refused, masked.
//
// Errors are *fielderr.Error named as the topology section that holds
// the cluster serialises them (compose.Spec): "etcd_access",
// "etcd_access.username", "etcd_access.ca_cert", "etcd.secure".
func Resolve(endpoints []string, a *Access, secure bool) error {
	external := len(endpoints) > 0
	if !external && *a != (Access{}) {
		return &fielderr.Error{Field: "etcd_access", Err: errors.New("are for an external cluster only (the local cluster gets its own auth, and its own TLS when secure)")}
	}
	if external && secure {
		return &fielderr.Error{Field: "etcd.secure", Err: errors.New("is for the local cluster only, not an external one")}
	}
	for i, e := range endpoints {
		e = strings.TrimSpace(e)
		if rest, ok := strings.CutPrefix(e, "https://"); ok {
			e, a.TLS = rest, true
		} else {
			e = strings.TrimPrefix(e, "http://")
		}
		if strings.Contains(e, "@") { // user:password@host: never read from a URL, and shown masked
			return fielderr.Invalid("etcd_addrs", endpoints[i], "credentials in an endpoint are not read: give the user with etcd_access.username and the password in %s", EnvPassword)
		}
		endpoints[i] = strings.TrimSuffix(e, "/")
	}
	if a.CACert != "" || a.Cert != "" || a.Key != "" {
		a.TLS = true
		if err := a.Apply(&clientv3.Config{Endpoints: endpoints}); err != nil { // the files load before anything starts
			return fielderr.Within("etcd_access", err)
		}
	}
	if a.Username != "" && a.Password == "" {
		a.Password = os.Getenv(EnvPassword)
		if a.Password == "" {
			return fielderr.Invalid("etcd_access.username", a.Username, "set its password in %s", EnvPassword)
		}
	}
	redact.Add(a.Password)
	return nil
}

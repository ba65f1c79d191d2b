package main

import "github.com/lockbench/lockbench/compose"

// secretURLs are local masters as --redis entries, password included.
func secretURLs(r *compose.Redis) []string {
	out := make([]string, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = s.Endpoint().SecretURL()
	}
	return out
}

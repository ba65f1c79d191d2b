package compose

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// Proxies are in-process TCP fault proxies (toxiproxy), one in front of each
// master. They exist only when a run asks for a partition or a reset: a
// proxy hop costs latency and client CPU, and a plain run must not pay it.
// Distance and latency faults are the delay line's (compose/delayline), in
// a process of its own.
type Proxies struct {
	server *toxiproxy.ApiServer
	list   []*toxiproxy.Proxy
}

// StartProxies puts one proxy on a free loopback port in front of each
// upstream address, in order.
func StartProxies(upstreams []string) (_ *Proxies, err error) {
	p := &Proxies{server: toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())}
	defer func() {
		if err != nil {
			_ = p.Close()
		}
	}()
	for i, up := range upstreams {
		px := toxiproxy.NewProxy(p.server, fmt.Sprintf("master-%d", i+1), "127.0.0.1:0", up)
		if err := px.Start(); err != nil {
			return nil, fmt.Errorf("compose: proxy for %s: %w", up, err)
		}
		p.list = append(p.list, px)
	}
	return p, nil
}

// Addrs are the proxies' listen addresses, in the upstreams' order.
func (p *Proxies) Addrs() []string {
	out := make([]string, len(p.list))
	for i, px := range p.list {
		out[i] = px.Listen
	}
	return out
}

// Len is the number of proxies.
func (p *Proxies) Len() int { return len(p.list) }

// Toxic is one toxiproxy toxic: Type is latency | timeout | reset_peer | ...,
// Stream upstream (requests) or downstream (replies).
type Toxic struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Stream     string         `json:"stream"`
	Attributes map[string]any `json:"attributes,omitempty"`
}

// AddToxic adds t to proxy i (0-based).
func (p *Proxies) AddToxic(i int, t Toxic) error {
	if i < 0 || i >= len(p.list) {
		return fmt.Errorf("compose: proxy %d: have %d", i, len(p.list))
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	_, err = p.list[i].Toxics.AddToxicJson(bytes.NewReader(b))
	return err
}

// RemoveToxic removes the toxic named name from proxy i; a toxic already
// gone is no error.
func (p *Proxies) RemoveToxic(i int, name string) error {
	if i < 0 || i >= len(p.list) {
		return fmt.Errorf("compose: proxy %d: have %d", i, len(p.list))
	}
	err := p.list[i].Toxics.RemoveToxic(context.Background(), name)
	if errors.Is(err, toxiproxy.ErrToxicNotFound) {
		return nil
	}
	return err
}

// Close stops every proxy and drops its connections.
func (p *Proxies) Close() error {
	for _, px := range p.list {
		px.Stop()
	}
	p.list = nil
	return nil
}

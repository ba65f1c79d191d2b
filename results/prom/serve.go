package prom

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// server serves an exporter's metrics at /metrics.
type server struct {
	srv *http.Server
	ln  net.Listener
	err chan error
}

// handler is the /metrics handler of e, beside the Go runtime's and the
// process's own collectors.
func handler(e *Exporter) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(e, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// listen binds addr (HOST:PORT; port 0 picks a free one) at once, so a
// malformed address or a taken port is an error before anything starts,
// and serves e on it until Close.
func listen(addr string, e *Exporter) (*server, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("want HOST:PORT (%v)", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler(e))
	s := &server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, ln: ln, err: make(chan error, 1)}
	go func() { s.err <- s.srv.Serve(ln) }()
	return s, nil
}

// Serve is a new Exporter served at addr until Stop; "" serves nothing
// (a nil Exporter and Server, whose Stop does nothing).
func Serve(addr string) (*Exporter, *server, error) {
	if addr == "" {
		return nil, nil, nil
	}
	e := New()
	s, err := listen(addr, e)
	if err != nil {
		return nil, nil, err
	}
	return e, s, nil
}

// Stop closes s, giving a scrape in flight a second.
func (s *server) Stop() {
	if s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.Close(ctx)
}

// Addr is the address served, with the port chosen.
func (s *server) Addr() string { return s.ln.Addr().String() }

// Close stops serving, letting a scrape in flight finish until ctx ends.
func (s *server) Close(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if serr := <-s.err; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

package prom

import (
	"net/http"
	"testing"
)

// TestServeStop: "" serves nothing and stops as nothing; an address serves
// /metrics until Stop; a bad address is an error, nothing served.
func TestServeStop(t *testing.T) {
	if e, s, err := Serve(""); e != nil || s != nil || err != nil {
		t.Fatalf(`Serve(""): %v %v %v, want nothing`, e, s, err)
	}
	(*server)(nil).Stop()
	e, s, err := Serve("127.0.0.1:0")
	if err != nil || e == nil {
		t.Fatalf("Serve: %v %v", e, err)
	}
	resp, err := http.Get("http://" + s.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	s.Stop()
	if _, err := http.Get("http://" + s.Addr() + "/metrics"); err == nil {
		t.Error("still serving after Stop")
	}
	if _, _, err := Serve("9464"); err == nil {
		t.Error("Serve(9464): no error for an address without a host part")
	}
}

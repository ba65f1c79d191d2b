package compose

import (
	"fmt"
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// DelayToxic is toxiproxy's latency toxic at microsecond resolution (the
// stock one counts whole milliseconds): every chunk leaves DelayUS after it
// arrived, chunks keep their order and overlap in flight, so a pipelined
// connection pays the delay once per round trip, like a longer wire.
// compare --rtt puts one on every master's replies.
type DelayToxic struct {
	DelayUS int64 `json:"delay_us"`
}

// DelayToxicType is the toxic's type name in Toxic.Type.
const DelayToxicType = "lockbench_delay"

func init() { toxics.Register(DelayToxicType, new(DelayToxic)) }

// GetBufferSize lets chunks queue while earlier ones wait out their delay.
func (t *DelayToxic) GetBufferSize() int { return 1024 }

func (t *DelayToxic) Pipe(stub *toxics.ToxicStub) {
	delay := time.Duration(t.DelayUS) * time.Microsecond
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			if wait := delay - time.Since(c.Timestamp); wait > 0 {
				timer.Reset(wait)
				select {
				case <-timer.C:
				case <-stub.Interrupt:
					timer.Stop()
					stub.Output <- c // never drop data
					return
				}
			}
			stub.Output <- c
		}
	}
}

// AddDelay adds d to every reply of every proxied master: an added round
// trip.
func (p *Proxies) AddDelay(d time.Duration) error {
	for i := range p.list {
		t := Toxic{Name: "rtt", Type: DelayToxicType, Stream: "downstream", Attributes: map[string]any{"delay_us": d.Microseconds()}}
		if err := p.AddToxic(i, t); err != nil {
			return fmt.Errorf("compose: rtt %v on proxy %d: %w", d, i+1, err)
		}
	}
	return nil
}

// Package multiplex decides how one Redlock command reaches N masters.
//
// A Strategy receives the same command for every master and fills a
// caller-owned reply slice, one reply per master in node order. The Redlock
// core (drivers/redlock) is written once over this interface; sequential
// loops, goroutine fan-out, explicit pipelining and client auto-pipelining are
// interchangeable values. This package imports nothing else of lockbench.
package multiplex

import (
	"context"
	"errors"
	"net"
	"time"
)

// Kind is what a command asks of one master.
type Kind uint8

const (
	// Acquire is SET key token NX PX ttl.
	Acquire Kind = iota
	// Release deletes key only if it still holds token (compare-and-delete).
	Release
	// Extend resets key's TTL only if it still holds token (compare-and-PEXPIRE).
	Extend
)

func (k Kind) String() string {
	switch k {
	case Acquire:
		return "acquire"
	case Release:
		return "release"
	case Extend:
		return "extend"
	}
	return "unknown"
}

// Cmd is one Redlock command, the same for every master.
type Cmd struct {
	Kind  Kind
	Key   string
	Token string
	TTL   time.Duration // lock TTL for Acquire and Extend
	// Timeout is the per-master budget. A master that has not answered within
	// it is counted as TimedOut and the attempt goes on without it.
	Timeout time.Duration
}

// Status is one master's answer, reduced to what the Redlock core counts.
type Status uint8

const (
	// OK: the key was set (Acquire), deleted (Release) or extended (Extend).
	OK Status = iota
	// Refused: another token holds the key (Acquire), or the key no longer
	// holds our token (Release, Extend).
	Refused
	// Failed: the master answered with an error or the connection failed.
	Failed
	// TimedOut: no answer within Cmd.Timeout.
	TimedOut
)

func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Refused:
		return "refused"
	case Failed:
		return "failed"
	case TimedOut:
		return "timeout"
	}
	return "unknown"
}

// Reply is one master's answer to a Cmd.
type Reply struct {
	Status Status
	Err    error // set for Failed and TimedOut
}

// Node is one Redis master as the Redlock core sees it: it runs one command
// and reduces the answer to a Reply. Adapters (drivers/goredis,
// drivers/rueidis) implement it per client library and mode.
type Node interface {
	Do(ctx context.Context, cmd Cmd) Reply
	Addr() string
}

// BatchNode is a Node that can also send several commands as one pipeline
// (one write, replies read back in order). The Pipeline strategy needs it.
type BatchNode interface {
	Node
	// DoBatch runs cmds as one pipeline; out[i] answers cmds[i].
	DoBatch(ctx context.Context, cmds []Cmd, out []Reply)
}

// Strategy sends one command to every master it was built over.
type Strategy interface {
	// Broadcast sends cmd to every master and fills out (len(out) == N()),
	// out[i] being master i's reply. It returns when every master answered or
	// timed out, or ctx is done.
	Broadcast(ctx context.Context, cmd Cmd, out []Reply)
	// N is the number of masters.
	N() int
	// Close stops any goroutines the strategy owns; it does not close nodes.
	Close() error
}

// Classify turns a client error into a Reply. A deadline hit (the per-master
// timeout or a network timeout) is TimedOut; anything else is Failed.
func Classify(err error) Reply {
	if err == nil {
		return Reply{Status: OK}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return Reply{Status: TimedOut, Err: err}
	}
	return Reply{Status: Failed, Err: err}
}

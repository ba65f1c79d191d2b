package workloads

import (
	"cmp"
	"strconv"
	"unsafe"
)

func init() {
	registerGenerator("uncontended", "every cycle locks a fresh key: no two workers ever meet", nil,
		func(c Config) generator { return uncontended{prefix: c.Prefix, arena: keyArenaFor(c.Workers)} })
}

type uncontended struct {
	prefix string
	arena  int // bytes of keys per allocation; 0: keyArena
}

func (u uncontended) Worker(id int) keySource {
	return &freshKeys{prefix: []byte(u.prefix + ":u:" + strconv.Itoa(id) + ":"), size: cmp.Or(u.arena, keyArena)}
}

const (
	// keyArena is the most bytes of keys one allocation holds (a few
	// hundred keys).
	keyArena = 8 << 10
	// keyArenas bounds the arenas a run's workers fill at once: each
	// worker holds one partly written, so at a fixed size they would
	// grow with the workers (4,096 × 8 KiB is 32 MiB of live heap for a
	// few keys each), while the keys written per second do not.
	keyArenas = 1 << 20
	// minKeyArena is the least: a couple of dozen keys per allocation.
	minKeyArena = 512
)

// keyArenaFor is the arena size for a run of workers: keyArenas shared
// out, between minKeyArena and keyArena.
func keyArenaFor(workers int) int {
	return min(keyArena, max(minKeyArena, keyArenas/max(workers, 1)))
}

// freshKeys writes each new key after the last one into an arena and
// returns a string over those bytes: one allocation per arena (a couple of
// dozen to a few hundred keys, keyArenaFor), none per cycle. Bytes once written are never written
// again — a full arena is left to the garbage collector, which frees it
// when no key in it is referenced any more — so a key stays valid however
// long a driver keeps it (a command still queued after its attempt timed
// out).
type freshKeys struct {
	prefix []byte
	arena  []byte
	size   int // bytes per arena
	n      int64
}

func (f *freshKeys) Next() string {
	f.n++
	if need := len(f.prefix) + 20; cap(f.arena)-len(f.arena) < need {
		f.arena = make([]byte, 0, max(f.size, need))
	}
	at := len(f.arena)
	f.arena = append(f.arena, f.prefix...)
	f.arena = strconv.AppendInt(f.arena, f.n, 10)
	key := f.arena[at:]
	return unsafe.String(&key[0], len(key))
}

package workloads

import (
	"strconv"
	"unsafe"
)

func init() {
	registerGenerator("uncontended", "every cycle locks a fresh key: no two workers ever meet", nil,
		func(c Config) generator { return uncontended{prefix: c.Prefix} })
}

type uncontended struct{ prefix string }

func (u uncontended) Worker(id int) keySource {
	return &freshKeys{prefix: []byte(u.prefix + ":u:" + strconv.Itoa(id) + ":")}
}

// keyArena is how many bytes of keys one allocation holds.
const keyArena = 8 << 10

// freshKeys writes each new key after the last one into an arena and
// returns a string over those bytes: one allocation per arena (a few
// hundred keys), none per cycle. Bytes once written are never written
// again — a full arena is left to the garbage collector, which frees it
// when no key in it is referenced any more — so a key stays valid however
// long a driver keeps it (a command still queued after its attempt timed
// out).
type freshKeys struct {
	prefix []byte
	arena  []byte
	n      int64
}

func (f *freshKeys) Next() string {
	f.n++
	if need := len(f.prefix) + 20; cap(f.arena)-len(f.arena) < need {
		f.arena = make([]byte, 0, max(keyArena, need))
	}
	at := len(f.arena)
	f.arena = append(f.arena, f.prefix...)
	f.arena = strconv.AppendInt(f.arena, f.n, 10)
	key := f.arena[at:]
	return unsafe.String(&key[0], len(key))
}

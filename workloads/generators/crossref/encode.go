package crossref

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// Timed is one generator's grants on the common clock (the masters':
// nanoseconds since the epoch), each time known to within ErrorNS.
type Timed struct {
	Generator int
	ErrorNS   int64
	Grants    []Grant
}

// Mapping puts one generator's run clock on the masters' clock: wall is
// run-clock nanoseconds plus WallAtZero; the masters' clock is the wall
// clock plus an offset measured at two instants and interpolated between
// them (a drifting clock), each offset known to within its error bound.
type Mapping struct {
	WallAtZero         int64 // wall-clock ns of run-clock 0
	At0, At1           int64 // wall-clock ns of the two offset measurements
	Offset0, Offset1   int64 // masters' − wall at At0, At1
	Error0NS, Error1NS int64 // their error bounds
}

// ErrorNS is the bound on any mapped time's error.
func (m Mapping) ErrorNS() int64 { return max(m.Error0NS, m.Error1NS) }

// Masters maps a run-clock time to the masters' clock.
func (m Mapping) Masters(t int64) int64 {
	if t == math.MaxInt64 {
		return t
	}
	wall := t + m.WallAtZero
	off := m.Offset0
	if m.At1 > m.At0 {
		f := float64(wall-m.At0) / float64(m.At1-m.At0)
		off = m.Offset0 + int64(f*float64(m.Offset1-m.Offset0))
	}
	return wall + off
}

// OnMasters is the generator's grants mapped by m.
func OnMasters(generator int, grants []Grant, m Mapping) Timed {
	out := Timed{Generator: generator, ErrorNS: m.ErrorNS(), Grants: make([]Grant, len(grants))}
	for i, g := range grants {
		out.Grants[i] = Grant{Key: g.Key, Granted: m.Masters(g.Granted), ValidUntil: m.Masters(g.ValidUntil), Release: m.Masters(g.Release), Fence: g.Fence}
	}
	return out
}

const magic = "lockbench-grants/1"

// Encode writes t compactly (gzip over varints, grants sorted by grant
// time, keys once each).
func (t Timed) Encode(w io.Writer) error {
	gs := append([]Grant(nil), t.Grants...)
	sort.Slice(gs, func(i, j int) bool { return gs[i].Granted < gs[j].Granted })
	keys := map[string]uint64{}
	var order []string
	for _, g := range gs {
		if _, ok := keys[g.Key]; !ok {
			keys[g.Key] = uint64(len(order))
			order = append(order, g.Key)
		}
	}
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriter(zw)
	var buf [binary.MaxVarintLen64]byte
	put := func(v int64) { bw.Write(buf[:binary.PutVarint(buf[:], v)]) }
	putU := func(v uint64) { bw.Write(buf[:binary.PutUvarint(buf[:], v)]) }
	bw.WriteString(magic)
	put(int64(t.Generator))
	put(t.ErrorNS)
	putU(uint64(len(order)))
	for _, k := range order {
		putU(uint64(len(k)))
		bw.WriteString(k)
	}
	putU(uint64(len(gs)))
	var prev int64
	for _, g := range gs {
		putU(keys[g.Key])
		put(g.Granted - prev)
		prev = g.Granted
		put(g.ValidUntil - g.Granted)
		if g.Release == math.MaxInt64 {
			putU(0)
		} else {
			putU(1)
			put(g.Release - g.Granted)
		}
		putU(g.Fence)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// Decode reads what Encode wrote.
func Decode(b []byte) (Timed, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return Timed{}, fmt.Errorf("crossref: %w", err)
	}
	r := bufio.NewReader(zr)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != magic {
		return Timed{}, errors.New("crossref: not a grant log")
	}
	var t Timed
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	get := func() int64 { v, err := binary.ReadVarint(r); keep(err); return v }
	getU := func() uint64 { v, err := binary.ReadUvarint(r); keep(err); return v }
	t.Generator, t.ErrorNS = int(get()), get()
	keys := make([]string, getU())
	for i := range keys {
		k := make([]byte, getU())
		_, err := io.ReadFull(r, k)
		keep(err)
		keys[i] = string(k)
	}
	n := getU()
	if first != nil || n > uint64(len(b))*8 {
		return Timed{}, fmt.Errorf("crossref: truncated grant log: %v", first)
	}
	t.Grants = make([]Grant, 0, n)
	var prev int64
	for range n {
		ki := getU()
		g := Grant{Granted: prev + get(), Release: math.MaxInt64}
		prev = g.Granted
		g.ValidUntil = g.Granted + get()
		if getU() == 1 {
			g.Release = g.Granted + get()
		}
		g.Fence = getU()
		if ki >= uint64(len(keys)) {
			return Timed{}, errors.New("crossref: bad key index")
		}
		g.Key = keys[ki]
		t.Grants = append(t.Grants, g)
	}
	if first != nil {
		return Timed{}, fmt.Errorf("crossref: truncated grant log: %w", first)
	}
	return t, nil
}

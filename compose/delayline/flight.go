package delayline

// flight is one direction's bytes in flight: what was read from the
// source and not yet written to the destination, in one buffer, with
// the end offset and due time of each chunk (one read). Chunks leave in
// order and their due times never decrease, so what is due at a time is
// always a prefix: written with one write however many chunks it spans.
// The buffer and the chunk list are reused (reset whenever they empty,
// compacted or grown only when full), so a chunk costs no allocation.
type flight struct {
	buf    []byte
	r, w   int     // buf[r:w] is in flight
	chunks []chunk // chunks[head:] are in flight, in order
	head   int
	last   int64 // due time of the latest chunk
}

// chunk is one read: its bytes end at end in buf; it is due at due
// (monotonic nanoseconds).
type chunk struct {
	end int
	due int64
}

// Sizes of a direction's buffer: it starts at minFlight and doubles up to
// maxFlight bytes in flight; beyond that the source is not read until
// some are delivered (back-pressure, as a full TCP window: data waits,
// it is never dropped).
const (
	minFlight = 16 << 10
	maxFlight = 4 << 20
)

// space is where the next read goes: empty when maxFlight bytes are in
// flight.
func (f *flight) space() []byte {
	if f.w == len(f.buf) && f.r > 0 { // compact: rare, the buffer resets whenever it empties
		n := copy(f.buf, f.buf[f.r:f.w])
		for i := f.head; i < len(f.chunks); i++ {
			f.chunks[i].end -= f.r
		}
		f.r, f.w = 0, n
	}
	if f.w == len(f.buf) && len(f.buf) < maxFlight {
		b := make([]byte, max(minFlight, 2*len(f.buf)))
		f.w = copy(b, f.buf[f.r:f.w])
		f.buf, f.r = b, 0
	}
	return f.buf[f.w:]
}

// add records n bytes just read into space() as a chunk due at due, or
// at the previous chunk's due time if that is later: jitter never
// reorders.
func (f *flight) add(n int, due int64) {
	if len(f.chunks) > f.head {
		due = max(due, f.last)
	}
	f.last = due
	f.w += n
	if len(f.chunks) == cap(f.chunks) && f.head > 0 { // a stream that never drains: reuse the front
		f.chunks = f.chunks[:copy(f.chunks, f.chunks[f.head:])]
		f.head = 0
	}
	f.chunks = append(f.chunks, chunk{end: f.w, due: due})
}

// empty reports whether nothing is in flight.
func (f *flight) empty() bool { return f.head == len(f.chunks) }

// next is the due time of the first chunk in flight; call only when
// !empty().
func (f *flight) next() int64 { return f.chunks[f.head].due }

// due are the bytes of every chunk due at or before now, in order.
func (f *flight) due(now int64) []byte {
	end := f.r
	for i := f.head; i < len(f.chunks) && f.chunks[i].due <= now; i++ {
		end = f.chunks[i].end
	}
	return f.buf[f.r:end]
}

// consume drops the first n bytes in flight (written).
func (f *flight) consume(n int) {
	f.r += n
	for f.head < len(f.chunks) && f.chunks[f.head].end <= f.r {
		f.head++
	}
	if f.head == len(f.chunks) {
		f.r, f.w, f.head, f.chunks = 0, 0, 0, f.chunks[:0]
	}
}

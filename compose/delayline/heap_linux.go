package delayline

// dueHeap holds the directions with chunks waiting, earliest next due
// first; each direction knows its index (hi, -1 when not held).
type dueHeap []*dir

func (h *dueHeap) push(d *dir) {
	d.hi = len(*h)
	*h = append(*h, d)
	h.up(d.hi)
}

// remove takes d out, if it is in.
func (h *dueHeap) remove(d *dir) {
	i := d.hi
	if i < 0 {
		return
	}
	last := len(*h) - 1
	h.swap(i, last)
	(*h)[last] = nil
	*h = (*h)[:last]
	d.hi = -1
	if i < last {
		h.fix((*h)[i])
	}
}

// fix restores the order after d's next due time changed.
func (h *dueHeap) fix(d *dir) {
	if !h.down(d.hi) {
		h.up(d.hi)
	}
}

func (h dueHeap) less(i, j int) bool { return h[i].next() < h[j].next() }

func (h dueHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].hi, h[j].hi = i, j
}

func (h dueHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

// down sifts i down; false if it did not move.
func (h dueHeap) down(i int) bool {
	i0 := i
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			break
		}
		h.swap(i, c)
		i = c
	}
	return i > i0
}

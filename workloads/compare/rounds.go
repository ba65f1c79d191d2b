package compare

import "slices"

// RoundOrder is the order round r (from 0) measures n cells in: rounds
// go in pairs, forward then backward, and each pair starts one cell
// further on (rotated). Slow drift over a compare (the machine warming, a
// neighbour's load) then falls on every cell alike instead of on the last
// ones: over each pair of rounds every cell's mean position is the
// middle, (n−1)/2; and over n pairs every cell is first once.
func RoundOrder(n, r int) []int {
	order := make([]int, n)
	shift := 0
	if n > 0 {
		shift = (r / 2) % n
	}
	for i := range order {
		order[i] = (i + shift) % n
	}
	if r%2 == 1 {
		slices.Reverse(order)
	}
	return order
}

// group is a run of consecutive cells [start, end) on one masters count:
// they share one lab.
type group struct{ start, end int }

// groups splits cells into their masters counts' groups, in order.
func groups(cells []Cell) []group {
	var out []group
	for i, c := range cells {
		if i == 0 || c.Masters != cells[i-1].Masters {
			out = append(out, group{start: i})
		}
		out[len(out)-1].end = i + 1
	}
	return out
}

//go:build !race

package multiplex

const raceEnabled = false

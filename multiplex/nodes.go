package multiplex

import (
	"errors"
	"io"
)

// AsNodes converts an adapter's concrete nodes to the Node view.
func AsNodes[T Node](ns []T) []Node {
	out := make([]Node, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

// CloseAll closes every node's client and joins the errors.
func CloseAll[T io.Closer](ns []T) error {
	errs := make([]error, 0, len(ns))
	for _, n := range ns {
		errs = append(errs, n.Close())
	}
	return errors.Join(errs...)
}

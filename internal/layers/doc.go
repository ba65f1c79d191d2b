// Package layers holds the import rules of lockbench's packages as a test:
// the libraries a user imports (drivers, compose) stay free of the
// recording and rendering packages, and no package imports one from a
// layer above it. It has no code; go test ./internal/layers checks them.
package layers

package workloads

// ContendedKeys is contendedKeys for the external tests.
var ContendedKeys = contendedKeys

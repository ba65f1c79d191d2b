// Package deploy holds the files for labs bigger than one machine: a
// docker-compose file and Kubernetes jobs that run lockbench against
// password-protected Redis masters and merge what several clients measured.
// Its tests check the files agree with the CLI (flags, paths, secrets).
package deploy

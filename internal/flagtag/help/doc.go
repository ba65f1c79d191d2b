// Package help renders a cobra program's help from flags that
// internal/flagtag bound: the flags of a command in groups placed by the
// config field each sets, a command's longer account as a help topic of
// its own, wrapped to one width; and answers mistyped commands and flags
// with the names nearest them.
//
// It owns nothing of lockbench's: the groups, the topics and the
// wrapping are the program's (Help), and it imports no package of the
// project but flagtag.
package help

package help

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownFlag finds the name in pflag's "unknown flag: --name" error.
var unknownFlag = regexp.MustCompile(`^unknown flag: --([^ =]+)`)

// SuggestFlag adds to an unknown-flag error the command's flags whose
// names are near the mistyped one, by the rule cobra suggests commands
// with (Levenshtein distance within the root's SuggestionsMinimumDistance,
// or a prefix): the flags are asked as the commands of a probe command.
// Other errors are returned as they are.
func SuggestFlag(c *cobra.Command, err error) error {
	m := unknownFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	probe := &cobra.Command{SuggestionsMinimumDistance: c.Root().SuggestionsMinimumDistance}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			probe.AddCommand(&cobra.Command{Use: f.Name, Run: func(*cobra.Command, []string) {}})
		}
	})
	near := probe.SuggestionsFor(m[1])
	if len(near) == 0 {
		return err
	}
	for i := range near {
		near[i] = "--" + near[i]
	}
	return errors.New(err.Error() + didYouMean(near))
}

// NoArgs refuses positional arguments: under a command with subcommands
// an unknown command, with the names near it; else an unexpected
// argument.
func NoArgs(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return nil
	case cmd.HasSubCommands():
		return fmt.Errorf("unknown command %q for %q%s", args[0], cmd.CommandPath(), didYouMean(cmd.Root().SuggestionsFor(args[0])))
	}
	return fmt.Errorf("%s: unexpected argument %q", cmd.CommandPath(), args[0])
}

// didYouMean is " (did you mean X or Y?)", or "" for no suggestions.
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) > 5 {
		names = names[:5]
	}
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(names, " or "))
}

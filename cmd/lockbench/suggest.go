package main

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

// suggestFlag adds to an unknown-flag error the command's flags whose names
// are near the mistyped one, by the rule cobra suggests commands with
// (Levenshtein distance within SuggestionsMinimumDistance, or a prefix):
// the flags are asked as the commands of a probe command.
func suggestFlag(c *cobra.Command, err error) error {
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

package help

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Help is a program's help: usage lines, what a command does, its
// examples, the subcommands and help topics, then its flags by group,
// wrapped to Width; a command's longer account (its Long) is a help topic
// of its own, named at the end.
type Help struct {
	// Width is the widest line of any help.
	Width int
	// Wrap breaks text wider than width; nil leaves it as it is. (Flags
	// are wrapped by pflag.)
	Wrap func(text string, width int) string
	// Groups place the flags.
	Groups Groups
	// Topics name each command's account of how it works: the command's
	// Long moves into a topic of that name, served by `PROGRAM help TOPIC`
	// instead of crowding its --help.
	Topics map[string]string
	// Extra are more topics: a Use, a Short and a Long each.
	Extra []*cobra.Command
	// Examples are the examples of the commands cobra adds ("help",
	// "completion", "completion bash"), by their path below the root.
	Examples map[string]string
}

// topicKey is the annotation of a command whose account is a topic.
const topicKey = "topic"

// Install gives root and every command below it h's help, and adds
// cobra's help and completion commands with h's examples.
func (h Help) Install(root *cobra.Command) {
	h.addTopics(root)
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		if IsTopic(c) {
			fmt.Fprintln(c.OutOrStdout(), h.wrap(strings.TrimRight(c.Long, " \n")))
			return
		}
		fmt.Fprint(c.OutOrStdout(), h.Usage(c))
	})
	root.SetUsageFunc(func(c *cobra.Command) error {
		_, err := io.WriteString(c.OutOrStderr(), h.Usage(c))
		return err
	})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	h.setExamples(root, "")
}

// setExamples gives the commands below c that have none h's Examples.
func (h Help) setExamples(c *cobra.Command, path string) {
	for _, sub := range c.Commands() {
		p := strings.TrimPrefix(path+" "+sub.Name(), " ")
		if ex, ok := h.Examples[p]; ok && sub.Example == "" {
			sub.Example = ex
		}
		h.setExamples(sub, p)
	}
}

// addTopics moves each command's Long into a help topic of its own and
// adds the extra topics.
func (h Help) addTopics(root *cobra.Command) {
	for _, c := range root.Commands() {
		name, ok := h.Topics[c.Name()]
		if !ok || c.Long == "" {
			continue
		}
		root.AddCommand(&cobra.Command{Use: name, Short: "how " + c.Name() + " works (" + root.Name() + " " + c.Name() + ")", Long: c.Long})
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[topicKey] = name
		c.Long = ""
	}
	root.AddCommand(h.Extra...)
}

// IsTopic: c is a help topic, not a command.
func IsTopic(c *cobra.Command) bool { return c.HasParent() && !c.Runnable() && !c.HasSubCommands() }

func (h Help) wrap(s string) string {
	if h.Wrap == nil {
		return s
	}
	return h.Wrap(s, h.Width)
}

// Usage is c's help.
func (h Help) Usage(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() {
		fmt.Fprintf(&b, "  %s\n", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "  %s [command]\n", c.CommandPath())
	}
	if text := strings.TrimSpace(c.Long + "\n" + c.Short); c.Long != "" || c.Short != "" {
		if c.Long != "" {
			text = strings.TrimSpace(c.Long)
		}
		fmt.Fprintf(&b, "\n%s\n", h.wrap(text))
	}
	if c.HasExample() {
		fmt.Fprintf(&b, "\nExamples:\n%s\n", strings.TrimRight(c.Example, "\n"))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		for _, sub := range c.Commands() {
			if (sub.IsAvailableCommand() || sub.Name() == "help") && !IsTopic(sub) {
				fmt.Fprintf(&b, "  %-*s %s\n", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
		fmt.Fprintf(&b, "\nHelp topics (%s help TOPIC):\n", c.Root().Name())
		for _, sub := range c.Commands() {
			if IsTopic(sub) {
				fmt.Fprintf(&b, "  %-*s %s\n", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
	}
	groups := h.Groups.split(c.LocalFlags())
	for _, g := range append([]string{""}, h.Groups.Order...) {
		fs := groups[g]
		if fs == nil {
			continue
		}
		title := g
		if g == "" {
			title = OwnGroup(c)
		}
		fmt.Fprintf(&b, "\n%s:\n%s", title, fs.FlagUsagesWrapped(h.Width))
	}
	if c.HasAvailableInheritedFlags() {
		fmt.Fprintf(&b, "\nGlobal flags:\n%s", c.InheritedFlags().FlagUsagesWrapped(h.Width))
	}
	if t := c.Annotations[topicKey]; t != "" {
		fmt.Fprintf(&b, "\nHow it works: %s help %s\n", c.Root().Name(), t)
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\nUse \"%s [command] --help\" for more about a command.\n", c.CommandPath())
	}
	return b.String()
}

// OwnGroup is the title of the group of c's own flags: "Flags" for the
// root, else the command's name ("Compare").
func OwnGroup(c *cobra.Command) string {
	if !c.HasParent() {
		return "Flags"
	}
	return strings.ToUpper(c.Name()[:1]) + c.Name()[1:]
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/render"
)

// helpWidth is the widest line of any command's help.
const helpWidth = 100

// setHelp gives root and every command below it lockbench's help: usage,
// what it does in a line, examples, then flags in groups (helpgroups.go),
// wrapped to helpWidth; a command's longer account of how it works is a
// help topic of its own (topics), named at the end. The help and
// completion commands get examples of their own.
func setHelp(root *cobra.Command) {
	addTopics(root)
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		if isTopic(c) {
			fmt.Fprintln(c.OutOrStdout(), render.Wrap(strings.TrimRight(c.Long, " \n"), helpWidth))
			return
		}
		fmt.Fprint(c.OutOrStdout(), usage(c))
	})
	root.SetUsageFunc(func(c *cobra.Command) error {
		_, err := io.WriteString(c.OutOrStderr(), usage(c))
		return err
	})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Example = "  lockbench help run\n  lockbench help answers     # how compare ranks and answers"
		case "completion":
			c.Example = "  source <(lockbench completion bash)\n" +
				"  lockbench completion zsh > \"${fpath[1]}/_lockbench\""
			for _, shell := range c.Commands() {
				shell.Example = completionExamples[shell.Name()]
			}
		}
	}
}

// topics name each command's account of how it works (its Long), served
// by `lockbench help TOPIC` instead of crowding its --help; formats is the
// registered output formats.
var topics = map[string]string{
	"run": "measuring", "compare": "answers", "sweep": "capacity", "gate": "gating",
	"scenario": "scenarios", "merge": "merging", "report": "reports", "delay": "delay-line",
}

// addTopics moves each command's Long into a help topic of its own.
func addTopics(root *cobra.Command) {
	for _, c := range root.Commands() {
		name, ok := topics[c.Name()]
		if !ok || c.Long == "" {
			continue
		}
		root.AddCommand(&cobra.Command{Use: name, Short: "how " + c.Name() + " works (lockbench " + c.Name() + ")", Long: c.Long})
		c.Annotations = map[string]string{"topic": name}
		c.Long = ""
	}
	root.AddCommand(&cobra.Command{Use: "formats", Short: "what --format prints", Long: "--format " + output.FormatHelp()})
}

// isTopic: c is a help topic, not a command.
func isTopic(c *cobra.Command) bool { return c.HasParent() && !c.Runnable() && !c.HasSubCommands() }

// completionExamples load each shell's completion into the running shell.
var completionExamples = map[string]string{
	"bash":       "  source <(lockbench completion bash)",
	"zsh":        "  source <(lockbench completion zsh)",
	"fish":       "  lockbench completion fish | source",
	"powershell": "  lockbench completion powershell | Out-String | Invoke-Expression",
}

// usage is a command's help: usage lines, what it does, examples, the
// subcommands and help topics, the flags by group, and the topic that
// tells more.
func usage(c *cobra.Command) string {
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
		fmt.Fprintf(&b, "\n%s\n", render.Wrap(text, helpWidth))
	}
	if c.HasExample() {
		fmt.Fprintf(&b, "\nExamples:\n%s\n", strings.TrimRight(c.Example, "\n"))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		for _, sub := range c.Commands() {
			if (sub.IsAvailableCommand() || sub.Name() == "help") && !isTopic(sub) {
				fmt.Fprintf(&b, "  %-*s %s\n", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
		b.WriteString("\nHelp topics (lockbench help TOPIC):\n")
		for _, sub := range c.Commands() {
			if isTopic(sub) {
				fmt.Fprintf(&b, "  %-*s %s\n", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
	}
	groups := groupFlags(c.LocalFlags())
	for _, g := range append([]string{""}, groupOrder...) {
		fs := groups[g]
		if fs == nil {
			continue
		}
		title := g
		if g == "" {
			title = "Flags"
			if c.HasParent() {
				title = strings.ToUpper(c.Name()[:1]) + c.Name()[1:]
			}
		}
		fmt.Fprintf(&b, "\n%s:\n%s", title, fs.FlagUsagesWrapped(helpWidth))
	}
	if c.HasAvailableInheritedFlags() {
		fmt.Fprintf(&b, "\nGlobal flags:\n%s", c.InheritedFlags().FlagUsagesWrapped(helpWidth))
	}
	if t := c.Annotations["topic"]; t != "" {
		fmt.Fprintf(&b, "\nHow it works: lockbench help %s\n", t)
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\nUse \"%s [command] --help\" for more about a command.\n", c.CommandPath())
	}
	return b.String()
}

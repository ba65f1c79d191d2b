package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/results/render"
)

// helpWidth is the widest line of any command's help.
const helpWidth = 100

// setHelp gives root and every command below it lockbench's help: flags in
// groups (helpgroups.go), wrapped to helpWidth, examples before the flags;
// and the help and completion commands cobra adds examples of their own.
func setHelp(root *cobra.Command) {
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		text := c.Long
		if text == "" {
			text = c.Short
		}
		fmt.Fprintf(c.OutOrStdout(), "%s\n\n%s", render.Wrap(strings.TrimRight(text, " \n"), helpWidth), usage(c))
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
			c.Example = "  lockbench help run\n  lockbench run --help"
		case "completion":
			c.Example = "  source <(lockbench completion bash)\n" +
				"  lockbench completion zsh > \"${fpath[1]}/_lockbench\""
			for _, shell := range c.Commands() {
				shell.Example = completionExamples[shell.Name()]
			}
		}
	}
}

// completionExamples load each shell's completion into the running shell.
var completionExamples = map[string]string{
	"bash":       "  source <(lockbench completion bash)",
	"zsh":        "  source <(lockbench completion zsh)",
	"fish":       "  lockbench completion fish | source",
	"powershell": "  lockbench completion powershell | Out-String | Invoke-Expression",
}

// usage is everything of a command's help under its description.
func usage(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() {
		fmt.Fprintf(&b, "  %s\n", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "  %s [command]\n", c.CommandPath())
	}
	if c.HasExample() {
		fmt.Fprintf(&b, "\nExamples:\n%s\n", strings.TrimRight(c.Example, "\n"))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
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
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\nUse \"%s [command] --help\" for more about a command.\n", c.CommandPath())
	}
	return b.String()
}

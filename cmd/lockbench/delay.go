package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/internal/exit"
)

// newDelayCmd is the delay line on its own: network distance in front of
// any TCP server, for a lab of one's own (compare --rtt starts one itself).
func newDelayCmd() *cobra.Command {
	var rtt string
	cmd := &cobra.Command{
		Use:   "delay LISTEN=TARGET[@RTT[±JITTER]]...",
		Short: "Relay TCP with an added round trip: each chunk delivered at arrival + RTT/2, each way",
		Long:  delayline.Help,
		Example: `  lockbench delay --rtt 1ms 127.0.0.1:7001=127.0.0.1:6379 127.0.0.1:7002=127.0.0.1:6380
  lockbench delay 127.0.0.1:0=10.0.0.5:6379@300us 127.0.0.1:0=10.0.0.6:6379@2ms±200us`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return exit.Usagef("delay: give at least one LISTEN=TARGET pair")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			def, err := delayline.ParseDistance(rtt)
			if err == nil {
				err = def.Check()
			}
			if err != nil {
				return exit.Usagef("--rtt %q: %v", rtt, err)
			}
			pairs := make([]delayline.Pair, len(args))
			for i, a := range args {
				if pairs[i], err = delayline.ParsePair(a, def); err != nil {
					return exit.Usagef("%v", err)
				}
			}
			if err := delayline.Serve(cmd.Context(), pairs, nil, cmd.OutOrStdout()); err != nil {
				return fmt.Errorf("delay: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&rtt, "rtt", "0", "round trip of the pairs without their own @RTT, e.g. 1ms or 1ms±100us")
	return cmd
}

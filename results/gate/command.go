package gate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// summaryEnv is the environment variable that tells a side's command
// where to write its summary: lockbench run ... --json "$LOCKBENCH_SUMMARY".
const summaryEnv = "LOCKBENCH_SUMMARY"

// command is a Measure that runs script with sh -c, each time with
// SummaryEnv set to a new file in dir, and reads the summary it wrote. The
// command's output is discarded, but for the end of its stderr in an
// error. When ctx ends the command's process group is sent SIGINT (a
// lockbench run then writes what it measured) and, 10 s later, killed.
func command(script, dir string) Measure {
	n := 0
	return func(ctx context.Context) (*schema.Summary, error) {
		n++
		path := filepath.Join(dir, fmt.Sprintf("summary-%d.json", n))
		cmd := exec.CommandContext(ctx, "sh", "-c", script)
		cmd.Env = append(os.Environ(), summaryEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
		cmd.WaitDelay = 10 * time.Second
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("%v: %s", err, lastLine(stderr.String()))
		}
		s, err := schema.ReadSummary(path)
		if err != nil {
			return nil, fmt.Errorf("no summary from the command (it must write $%s): %v", summaryEnv, err)
		}
		return s, nil
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

package output

import (
	"fmt"
	"github.com/lockbench/lockbench/internal/results/redact"
	"github.com/lockbench/lockbench/internal/results/render"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// progress tells the user on stderr where a command is. Plain lines when
// stderr is not a terminal (CI logs, files): a cell header (k of n and
// the time left), "warmup 2s…", then one labelled line a second. On a
// terminal, a multi-cell command
// keeps one live line per cell instead — cell k of n, elapsed / estimated,
// the last second's figures — rewritten in place and left with the cell's
// result when it ends.
type progress struct {
	w     io.Writer
	live  bool // a terminal and more than one cell
	width int  // the terminal's columns when live
	n     int  // cells planned
	k     int  // the cell being measured, from 1
	start time.Time
	per   time.Duration // warmup + duration of one cell, for the estimate
	name  string
	// estimate of the whole command, fixed at each cell's start
	estimate time.Duration
}

// NewProgress tracks n cells of per each (warmup + duration).
func NewProgress(w io.Writer, n int, per time.Duration) *progress {
	p := &progress{w: w, n: n, per: per, start: time.Now()}
	if f, ok := redact.File(w); ok && n > 1 && isTerminal(f) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			p.live, p.width = true, cols
		}
	}
	return p
}

// Begin starts the next cell.
func (p *progress) Begin(name string, warmup time.Duration) {
	p.k++
	p.name = name
	elapsed := time.Since(p.start)
	per := p.per // a cell's warmup and duration, or what cells took so far when more (their set-up, a slow machine)
	if p.k > 1 {
		per = max(per, elapsed/time.Duration(p.k-1))
	}
	p.estimate = elapsed + time.Duration(p.n-p.k+1)*per
	if p.live {
		status := "measuring"
		if warmup > 0 {
			status = fmt.Sprintf("warmup %v…", warmup)
		}
		p.redraw(status)
		return
	}
	if p.n > 1 {
		fmt.Fprintf(p.w, "cell %d of %d: %s (~%s left)\n", p.k, p.n, name, clock(p.estimate-elapsed))
	} else {
		fmt.Fprintln(p.w, name)
	}
	if warmup > 0 {
		fmt.Fprintf(p.w, "warmup %v…\n", warmup)
	}
}

// Tick is the once-a-second report of the cell.
func (p *progress) Tick(elapsed time.Duration, iv, total *record.Interval) {
	if !p.live {
		fmt.Fprintln(p.w, render.ProgressLine(elapsed, iv, total))
		return
	}
	secs := iv.End.Sub(iv.Start).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(iv.Count(schema.OpCycle, schema.OK)) / secs
	}
	p.redraw(fmt.Sprintf("now: %.0f cycles/s", rate))
}

// End leaves the cell's line with its result.
func (p *progress) End(r schema.Run) {
	if !p.live {
		return
	}
	p.redraw(fmt.Sprintf("%.0f cycles/s", r.Throughput.CyclesPerS))
	fmt.Fprintln(p.w)
}

// redraw rewrites the live line: "cell 3/16 0:07/~0:29 NAME  STATUS",
// cut to the terminal's width.
func (p *progress) redraw(status string) {
	line := fmt.Sprintf("cell %d/%d %s/~%s %s  %s", p.k, p.n, clock(time.Since(p.start)), clock(p.estimate), p.name, status)
	if r := []rune(line); len(r) > p.width-1 {
		line = string(r[:p.width-1])
	}
	fmt.Fprint(p.w, "\r\033[K"+line)
}

func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// isTerminal: f is a terminal (a live line may be rewritten in place).
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// fitTerminal is opt with, unless it has one, the width of the terminal w
// is.
func fitTerminal(w io.Writer, opt render.TableOptions) render.TableOptions {
	if f, ok := redact.File(w); ok && opt.MaxWidth == 0 && isTerminal(f) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			opt.MaxWidth = width
		}
	}
	return opt
}

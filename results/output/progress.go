package output

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/redact"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"

	"golang.org/x/term"
)

// progress tells the user on stderr where a command is.
//
// One cell (run): its name, "warmup 2s…", then one labelled line a
// second. Several cells (compare): on a terminal one live line — a bar,
// cells done of planned, the cell now, the time left — rewritten in place;
// elsewhere (CI logs, files) a line at each twentieth of the cells, so a
// whole compare is some twenty lines; verbose, a line per cell.
//
// The time left is what the cells done took per cell, times the cells
// left, once one has ended (before that, the plan's warmup + duration a
// cell, which leaves out the set-up). It is shown monotone: it falls with
// the clock (a quarter of the way faster where the cells run ahead of it,
// slower where they fall behind it, so their noise does not pull it down
// for good) and rises only when
// the cells turn out slower than it says by a quarter (or two cells' time
// near the end), so it neither jumps back and forth nor hides a slowdown.
type progress struct {
	w       io.Writer
	live    bool // a terminal and more than one cell
	verbose bool // a line per cell off a terminal
	width   int  // the terminal's columns when live
	n       int  // cells planned
	k       int  // the cell being measured, from 1
	now     func() time.Time
	start   time.Time
	began   time.Time     // the current cell's start
	per     time.Duration // warmup + duration of one cell, for the estimate
	name    string
	// left is the time left last shown, at shownAt; 0: none yet.
	left    time.Duration
	shownAt time.Time
	// reported is the last twentieth of the cells a plain line said.
	reported int
}

// NewProgress tracks n cells of per each (warmup + duration) on w;
// verbose asks for a line per cell where w is no terminal.
func NewProgress(w io.Writer, n int, per time.Duration, verbose bool) *progress {
	p := &progress{w: w, n: n, per: per, verbose: verbose, now: time.Now}
	p.start = p.now()
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
	p.name, p.began = name, p.now()
	switch {
	case p.live:
		status := "measuring"
		if warmup > 0 {
			status = fmt.Sprintf("warmup %v", warmup)
		}
		p.redraw(status)
	case p.n == 1:
		fmt.Fprintln(p.w, name)
		if warmup > 0 {
			fmt.Fprintf(p.w, "warmup %v…\n", warmup)
		}
	case p.verbose:
		fmt.Fprintf(p.w, "cell %d of %d: %s (%s)\n", p.k, p.n, name, p.timeLeft())
	}
}

// Tick is the once-a-second report of the cell.
func (p *progress) Tick(elapsed time.Duration, iv, total *record.Interval) {
	switch {
	case p.live:
		secs := iv.End.Sub(iv.Start).Seconds()
		rate := 0.0
		if secs > 0 {
			rate = float64(iv.Count(schema.OpCycle, schema.OK)) / secs
		}
		p.redraw(fmt.Sprintf("now %.0f cycles/s", rate))
	case p.n == 1 || p.verbose:
		fmt.Fprintln(p.w, render.ProgressLine(elapsed, iv, total))
	}
}

// End closes the cell: off a terminal, a line at each twentieth of the
// cells; on one, the last cell leaves its line with the total.
func (p *progress) End(r schema.Run) {
	switch {
	case p.live && p.k >= p.n:
		p.redraw("done")
		fmt.Fprintln(p.w)
	case p.live:
		p.redraw(fmt.Sprintf("%.0f cycles/s", r.Throughput.CyclesPerS))
	case p.n > 1 && !p.verbose:
		if step := p.k * 20 / p.n; step > p.reported {
			p.reported = step
			left := ", " + p.timeLeft()
			if p.k == p.n {
				left = ""
			}
			fmt.Fprintf(p.w, "%d of %d cells (%d %%), %s elapsed%s\n", p.k, p.n, 100*p.k/p.n, clock(p.now().Sub(p.start)), left)
		}
	}
}

// timeLeft is "~M:SS left": the cells left at what the cells done took
// each (at least the plan's warmup + duration), the current one counted by
// its share of that; monotone as the type says.
func (p *progress) timeLeft() string {
	now := p.now()
	per := p.per
	if p.k > 1 {
		per = max(per, p.began.Sub(p.start)/time.Duration(p.k-1))
	}
	if p.k <= settle && p.n > 2*settle {
		// Two or three cells say little of the rest (their set-up, a cold
		// cache): no figure until they have ended.
		return "time left after " + fmt.Sprint(settle) + " cells"
	}
	left := float64(p.n - p.k + 1)
	if per > 0 {
		left -= min(1, float64(now.Sub(p.began))/float64(per))
	}
	est := time.Duration(max(left, 0) * float64(per))
	if p.left > 0 {
		fallen := max(p.left-now.Sub(p.shownAt), 0)
		switch {
		case est < fallen: // ahead of the clock: close a quarter of the gap
			est = fallen - (fallen-est)/4
		case est <= fallen+max(fallen/4, 2*per): // behind: slow the fall, never rise
			est = min(est, p.left)
		}
	}
	p.left, p.shownAt = est, now
	return "~" + clock(est) + " left"
}

// redraw rewrites the live line: "[#####·····] 43/320 0:42 left NAME  STATUS",
// cut to the terminal's width.
func (p *progress) redraw(status string) {
	const bar = 20
	filled := bar * (p.k - 1) / max(p.n, 1)
	line := fmt.Sprintf("[%s%s] %d/%d %s %s  %s", strings.Repeat("#", filled), strings.Repeat("·", bar-filled),
		p.k, p.n, p.timeLeft(), p.name, status)
	if r := []rune(line); len(r) > p.width-1 {
		line = string(r[:p.width-1])
	}
	fmt.Fprint(p.w, "\r\033[K"+line)
}

// settle is how many cells end before a command of many shows the time
// left.
const settle = 3

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

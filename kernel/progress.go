package kernel

import (
	"fmt"
	"html"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// ProgressFunc is a progress callback: done of total units finished. It has
// the same underlying type as sv.Progress, and a Progress's Report method
// value (bar.Report) can be passed wherever either is expected.
type ProgressFunc = func(done, total int)

// Progress is a progress bar. In a notebook it is an HTML bar that updates
// in place (one transient output block); in a terminal a line redrawn with
// \r; otherwise (CI logs) a line every 10 %. Report is safe for concurrent
// use.
type Progress struct {
	label   string
	display Display
	out     io.Writer
	tty     bool
	id      string
	every   time.Duration

	mu          sync.Mutex
	stage       string
	start, last time.Time
	done, total int
	lastTenth   int
	finished    bool
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

var progressIDs struct {
	sync.Mutex
	n int
}

// newProgressID returns an id for a transient output block, unique within
// this process and across processes (GoNB runs each cell as a program).
func newProgressID() string {
	progressIDs.Lock()
	defer progressIDs.Unlock()
	progressIDs.n++
	return fmt.Sprintf("roleprint-progress-%d-%d-%d", os.Getpid(), time.Now().UnixNano(), progressIDs.n)
}

// Progress returns a new progress bar labelled label.
func (nb *Notebook) Progress(label string) *Progress {
	p := &Progress{label: label, display: nb.Display, out: nb.stderr(), start: time.Now(),
		every: 250 * time.Millisecond, lastTenth: -1}
	p.tty = p.display == nil && isTerminal(p.out)
	if p.display != nil {
		p.id = newProgressID()
	}
	return p
}

// NewProgress returns a progress bar of the default notebook context.
func NewProgress(label string) *Progress { return Default().Progress(label) }

// Report records that done of total units are finished and redraws the bar
// when due (at most four times a second, and always at the end).
func (p *Progress) Report(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done, p.total = done, total
	now := time.Now()
	complete := total > 0 && done >= total
	switch {
	case p.display != nil:
		if complete || now.Sub(p.last) >= p.every {
			p.last = now
			p.display.UpdateHTML(p.id, p.html(now))
		}
	case p.tty:
		if complete || now.Sub(p.last) >= p.every {
			p.last = now
			fmt.Fprintf(p.out, "\r%s", p.text(now))
		}
	default:
		tenth := -1
		if total > 0 {
			tenth = 10 * done / total
		}
		if tenth != p.lastTenth && tenth >= 0 {
			p.lastTenth = tenth
			fmt.Fprintln(p.out, p.text(now))
		}
	}
}

// Stage reports progress within a named stage of a longer job (the label
// shows "label · stage"); it fits callbacks of the form
// func(stage string, done, total int), such as table2.Config.Progress.
// A new stage restarts the 10 % log steps.
func (p *Progress) Stage(stage string, done, total int) {
	p.mu.Lock()
	if stage != p.stage {
		p.stage = stage
		p.lastTenth = -1
		p.last = time.Time{}
	}
	p.mu.Unlock()
	p.Report(done, total)
}

// Func returns the bar's Report as a plain callback.
func (p *Progress) Func() ProgressFunc { return p.Report }

// Done marks the work finished and leaves the final state shown: the count
// and the elapsed time.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	now := time.Now()
	elapsed := now.Sub(p.start).Round(10 * time.Millisecond)
	msg := fmt.Sprintf("%s: %d/%d done in %s", p.label, p.done, p.total, elapsed)
	if p.total <= 0 {
		msg = fmt.Sprintf("%s: done in %s", p.label, elapsed)
	}
	switch {
	case p.display != nil:
		p.display.UpdateHTML(p.id, fmt.Sprintf(`<div style="font-family:monospace;font-size:0.9em">✔ %s</div>`, html.EscapeString(msg)))
	case p.tty:
		fmt.Fprintf(p.out, "\r%s\033[K\n", msg)
	default:
		fmt.Fprintln(p.out, msg)
	}
}

// fraction returns done/total clamped to [0, 1], or -1 when total is unknown.
func (p *Progress) fraction() float64 {
	if p.total <= 0 {
		return -1
	}
	return min(1, max(0, float64(p.done)/float64(p.total)))
}

// eta returns the estimated time left, or 0 when unknown.
func (p *Progress) eta(now time.Time) time.Duration {
	f := p.fraction()
	if f <= 0 || f >= 1 {
		return 0
	}
	el := now.Sub(p.start)
	return time.Duration(float64(el) * (1 - f) / f).Round(time.Second)
}

// fullLabel is the label with the current stage.
func (p *Progress) fullLabel() string {
	if p.stage == "" {
		return p.label
	}
	return p.label + " · " + p.stage
}

// text renders the bar for a terminal or a log.
func (p *Progress) text(now time.Time) string {
	f := p.fraction()
	if f < 0 {
		return fmt.Sprintf("%s: %d", p.fullLabel(), p.done)
	}
	const width = 30
	n := int(f*width + 0.5)
	s := fmt.Sprintf("%s [%s%s] %3.0f%% %d/%d", p.fullLabel(), strings.Repeat("#", n), strings.Repeat(" ", width-n), 100*f, p.done, p.total)
	if eta := p.eta(now); eta > 0 {
		s += " ETA " + eta.String()
	}
	return s
}

// html renders the bar for a notebook.
func (p *Progress) html(now time.Time) string {
	f := p.fraction()
	var b strings.Builder
	b.WriteString(`<div style="font-family:monospace;font-size:0.9em;display:flex;align-items:center;gap:0.6em">`)
	fmt.Fprintf(&b, "<span>%s</span>", html.EscapeString(p.fullLabel()))
	if f >= 0 {
		fmt.Fprintf(&b, `<progress value="%d" max="%d" style="width:16em"></progress><span>%.0f%% %d/%d`, p.done, p.total, 100*f, p.done, p.total)
		if eta := p.eta(now); eta > 0 {
			fmt.Fprintf(&b, " · ETA %s", eta)
		}
		b.WriteString("</span>")
	} else {
		fmt.Fprintf(&b, "<span>%d</span>", p.done)
	}
	b.WriteString("</div>")
	return b.String()
}

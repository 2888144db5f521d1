package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/report"
)

// outputFlags are the paper-output flags shared by the jobs that write
// figures and tables (reproduce, score, pairs, stats, speech profile,
// judge/metrics agreement).
type outputFlags struct {
	figures *formatsFlag
	latex   *string
	noHTML  *bool
	paper   *bool
	// figOpts holds --figure-size, --dpi and --figure-rows.
	figOpts report.FigureOptions
}

// addOutputFlags registers --figures, --figure-size, --dpi, --latex,
// --no-html and --no-paper-rows on fs.
func addOutputFlags(fs *flag.FlagSet, html bool) *outputFlags {
	o := &outputFlags{
		figures: &formatsFlag{s: "png,svg", formats: report.DefaultFormats()},
		latex:   fs.String("latex", "", "also collect every LaTeX table of the run into this one file (\\input it; needs booktabs and graphicx)"),
		paper:   new(bool),
		noHTML:  new(bool),
	}
	fs.Var(o.figures, "figures", "figure formats written under OUT/figures: comma-separated png, svg, pdf (fonts embedded in svg/pdf), or none")
	fs.Func("figure-size", "figure size in inches: W (the width of a one-column figure; two-column figures are twice as wide, heights keep each figure's aspect) or WxH (H: the height of every figure); default 3.5",
		func(s string) (err error) {
			o.figOpts.ColumnWidth, o.figOpts.Height, err = report.ParseFigureSize(s)
			return err
		})
	fs.Func("dpi", "resolution of PNG figures in dots per inch (1–2400; default 300)", func(s string) error {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 2400 {
			return fmt.Errorf("--dpi %q: want a whole number in 1–2400", s)
		}
		o.figOpts.DPI = n
		return nil
	})
	if html {
		o.noHTML = fs.Bool("no-html", false, "do not write OUT/"+report.HTMLFile)
		noPaper := fs.Bool("no-paper-rows", false, "leave the paper's numbers out of the LaTeX/HTML tables")
		o.paper = noPaper
	}
	return o
}

// addFigureRows registers --figure-rows (reproduce: rows drawn in the
// Table 2 figures besides the default selection).
func (o *outputFlags) addFigureRows(fs *flag.FlagSet) {
	fs.Func("figure-rows", "comma-separated rows the Table 2 figures draw besides the default ones (the best untuned row, the best fine-tuned row, one row per paper counterpart), or all",
		func(s string) error {
			o.figOpts.Rows = nil
			for _, r := range strings.Split(s, ",") {
				if r = strings.TrimSpace(r); r != "" {
					o.figOpts.Rows = append(o.figOpts.Rows, r)
				}
			}
			return nil
		})
}

// writer returns a report Writer into dir with the chosen formats and
// figure options.
func (o *outputFlags) writer(e *env, dir string) (*report.Writer, error) {
	w, err := report.NewWriter(dir, o.figures.formats)
	if err != nil {
		return nil, err
	}
	w.Logf = e.Logf
	w.FigureOptions = o.figOpts
	return w, nil
}

// paperRows reports whether tables show the paper's rows.
func (o *outputFlags) paperRows() bool { return !*o.paper }

// finish writes the collected LaTeX file (--latex) and report.html (unless
// --no-html, or page is nil), and returns the files written relative to
// the Writer's folder.
func (o *outputFlags) finish(w *report.Writer, page *report.Page) ([]string, error) {
	if *o.latex != "" {
		if err := w.WriteLaTeX(*o.latex); err != nil {
			return nil, err
		}
	}
	if page != nil && !*o.noHTML {
		if _, err := w.WriteHTML(*page); err != nil {
			return nil, err
		}
	}
	return w.Files(), nil
}

// formatsFlag is --figures, checked when parsed.
type formatsFlag struct {
	s       string
	formats []plots.Format
}

func (f *formatsFlag) String() string { return f.s }

func (f *formatsFlag) Set(s string) error {
	formats, err := report.ParseFormats(s)
	if err != nil {
		return err
	}
	f.s, f.formats = s, formats
	return nil
}

// runInfo is the manifest of a job without one of its own (score): the
// command, software and machine, the resolved configuration and timing.
type runInfo struct {
	Command       []string  `json:"command"`
	Started       time.Time `json:"started"`
	Seconds       float64   `json:"seconds"`
	GoVersion     string    `json:"go_version"`
	Module        string    `json:"module"`
	ModuleVersion string    `json:"module_version"`
	VCSRevision   string    `json:"vcs_revision,omitempty"`
	GOOS          string    `json:"goos"`
	GOARCH        string    `json:"goarch"`
	NumCPU        int       `json:"num_cpu"`
	Hostname      string    `json:"hostname,omitempty"`
	Config        any       `json:"config"`
	Outputs       []string  `json:"outputs,omitempty"`
}

func newRunInfo(command []string, started time.Time, config any) *runInfo {
	ri := &runInfo{Command: command, Started: started, Seconds: time.Since(started).Seconds(), GoVersion: runtime.Version(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(), Config: config}
	ri.Hostname, _ = os.Hostname()
	if bi, ok := debug.ReadBuildInfo(); ok {
		ri.Module, ri.ModuleVersion = bi.Main.Path, bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				ri.VCSRevision = s.Value
			}
		}
	}
	return ri
}

// joinFiles says which files were written where, for the log.
func joinFiles(dir string, files []string) string {
	if len(files) == 0 {
		return "nothing"
	}
	return fmt.Sprintf("%s in %s", strings.Join(files, ", "), filepath.Clean(dir))
}

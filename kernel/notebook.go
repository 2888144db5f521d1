package kernel

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/plots"
)

// Environment variables read by [Open].
const (
	// QuickEnv selects quick mode when set to 1, true or yes: notebooks use
	// small data and few rounds so that all of them run in minutes (CI).
	QuickEnv = "ROLEPRINT_QUICK"
	// OutEnv is the output root; each notebook writes under OutEnv/<name>.
	// Default: out/notebooks in the repository (or the working directory
	// outside it).
	OutEnv = "ROLEPRINT_OUT"
	// FreshEnv set to 1 makes [Memo] recompute instead of loading cached
	// results.
	FreshEnv = "ROLEPRINT_FRESH"
)

// Notebook is one notebook's (or one program's) output context: where its
// files go, whether it runs in quick mode, and where rich output is shown.
// Its fields may be changed after Open.
type Notebook struct {
	// Name names the notebook (e.g. "02-baselines"); it is the name of its
	// output folder.
	Name string
	// Dir is the output folder: figures/, tables/, audio/, cache/ go under it.
	Dir string
	// Quick is quick mode (from ROLEPRINT_QUICK).
	Quick bool
	// Fresh makes Memo recompute (from ROLEPRINT_FRESH).
	Fresh bool
	// FigureSize is the size of saved figures (default one paper column,
	// 3.5 × 2.5 in at 300 DPI); InlineDPI the resolution of figures shown
	// in the notebook (default 150).
	FigureSize plots.Size
	InlineDPI  int
	// InlineSVG shows figures as SVG instead of PNG in the notebook.
	InlineSVG bool
	// FigureFormats are the formats Figure saves (default PNG and SVG).
	FigureFormats []plots.Format
	// Display is the notebook front end; nil outside a notebook.
	Display Display
	// Stdout and Stderr receive text (default os.Stdout, os.Stderr).
	Stdout, Stderr io.Writer

	unnamed int
}

// Open returns the output context of the notebook called name, configured
// from the environment (see QuickEnv, OutEnv, FreshEnv). It creates no
// files: folders are made when something is written.
func Open(name string) *Notebook {
	if name == "" {
		name = "roleprint"
	}
	root := os.Getenv(OutEnv)
	if root == "" {
		root = filepath.Join(RepoRoot(), "out", "notebooks")
	}
	return &Notebook{
		Name:          name,
		Dir:           filepath.Join(root, name),
		Quick:         envTrue(QuickEnv),
		Fresh:         envTrue(FreshEnv),
		FigureSize:    plots.ColumnSize(),
		InlineDPI:     150,
		FigureFormats: []plots.Format{plots.PNG, plots.SVG},
		Display:       GoNB(),
		Stdout:        os.Stdout,
		Stderr:        os.Stderr,
	}
}

// Default returns the output context used by the package-level functions
// (Show, NewProgress): Open of $ROLEPRINT_NOTEBOOK, or "roleprint".
func Default() *Notebook { return Open(os.Getenv("ROLEPRINT_NOTEBOOK")) }

// Quick reports whether quick mode is on in the environment (ROLEPRINT_QUICK).
func Quick() bool { return envTrue(QuickEnv) }

// envTrue reports whether the variable is set to 1, true, yes or on.
func envTrue(name string) bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(name))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// RepoRoot returns the root of the RolePrint checkout containing the
// working directory (the nearest parent holding the project's go.mod), or
// the working directory when there is none. Notebooks run with their own
// folder as working directory, so this finds the checkout from there.
func RepoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := wd; ; {
		if isProjectRoot(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return wd
		}
		d = parent
	}
}

// isProjectRoot reports whether dir holds RolePrint's go.mod.
func isProjectRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == "github.com/roleprint/roleprint"
		}
	}
	return false
}

// InNotebook reports whether output goes to a notebook front end.
func (nb *Notebook) InNotebook() bool { return nb.Display != nil }

// Path returns a path under the notebook's output folder, creating the
// folder that holds it.
func (nb *Notebook) Path(elem ...string) (string, error) {
	p := filepath.Join(append([]string{nb.Dir}, elem...)...)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("kernel: %w", err)
	}
	return p, nil
}

// Printf writes text to the notebook's standard output.
func (nb *Notebook) Printf(format string, args ...any) {
	fmt.Fprintf(nb.stdout(), format, args...)
}

// Note shows a short remark: Markdown in a notebook, a "note:" line
// elsewhere.
func (nb *Notebook) Note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if nb.Display != nil {
		nb.Display.Markdown("> **Note.** " + msg)
		return
	}
	fmt.Fprintln(nb.stdout(), "note: "+msg)
}

// Report shows err, if not nil, as an "error:" line on standard error
// (which the notebook checker flags) and returns it, so that a failing call
// in a notebook is never silent.
func (nb *Notebook) Report(err error) error {
	if err != nil {
		fmt.Fprintf(nb.stderr(), "error: %v\n", err)
	}
	return err
}

// Shared returns the path of the shared corpus name (see
// data.SharedCorpus). When it is absent it prints a note saying so and
// what to set, and returns ok false, so that a notebook can skip a section
// gracefully.
func (nb *Notebook) Shared(name string) (path string, ok bool) {
	path, ok = data.SharedCorpus(name)
	if !ok {
		nb.Note("shared corpus %q not found (looked in ../shared/corpora and $%s); skipping the cells that need it", name, data.SharedEnv)
	}
	return path, ok
}

func (nb *Notebook) stdout() io.Writer {
	if nb.Stdout == nil {
		return os.Stdout
	}
	return nb.Stdout
}

func (nb *Notebook) stderr() io.Writer {
	if nb.Stderr == nil {
		return os.Stderr
	}
	return nb.Stderr
}

// nextName returns a fresh name for an unnamed output of the given kind.
func (nb *Notebook) nextName(kind string) string {
	nb.unnamed++
	return fmt.Sprintf("%s-%d", kind, nb.unnamed)
}

// Notes prints each of notes as a "note:" line (a run's or a report's
// notes).
func (nb *Notebook) Notes(notes []string) {
	for _, n := range notes {
		nb.Printf("note: %s\n", n)
	}
}

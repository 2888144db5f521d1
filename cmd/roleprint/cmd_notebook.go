package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/kernel/nbcheck"

	"github.com/roleprint/roleprint/internal/fsx"
)

func init() {
	register(&command{
		Name:    "notebook",
		Summary: "GoNB notebooks: setup (build GoNB, register it with Jupyter), list, run (execute and check), check",
		Run:     runNotebook,
	})
}

const (
	// gonbModule is GoNB's module path; its version comes from go.mod
	// through the binary's build information.
	gonbModule = "github.com/janpfeifer/gonb"
	// defaultGonbVersion is used when the build information is absent.
	defaultGonbVersion = "v0.11.4"
	// defaultGoimportsVersion is the golang.org/x/tools version whose
	// goimports GoNB runs on every cell.
	defaultGoimportsVersion = "v0.44.0"
	// aptPackages are Debian's packages that provide Jupyter's executor.
	aptPackages = "jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel"
	// uiPackage is Debian's package that provides the browser front end
	// (`jupyter notebook`); the executor packages above do not include it.
	uiPackage = "jupyter-notebook"
	// launchCommand opens the notebooks in the browser; the README's
	// notebook section names the same command (TestReadmeLaunchCommand).
	launchCommand = "jupyter notebook notebooks/"
)

// jupyterFrontEnds are the browser front ends `notebook setup` looks for,
// in the order it recommends them: the command that opens the notebooks
// and the `jupyter` subcommand whose `--version` proves it is installed.
var jupyterFrontEnds = []struct{ launch, sub string }{
	{launchCommand, "notebook"},
	{"jupyter lab notebooks/", "lab"},
}

// notebookFrontEnd returns the command that opens the notebooks in a
// browser with the given jupyter executable, or "" when Jupyter has no
// front end installed (only nbconvert: the notebooks can be executed but
// not opened).
func notebookFrontEnd(ctx context.Context, jupyter string) string {
	for _, f := range jupyterFrontEnds {
		cmd := exec.CommandContext(ctx, jupyter, f.sub, "--version")
		if cmd.Run() == nil {
			return f.launch
		}
	}
	return ""
}

// frontEndAdvice is the closing line of `notebook setup`: the launch command
// that works here, or what to install for one (never a command that is not
// installed).
func frontEndAdvice(launch string) string {
	if launch != "" {
		root := ""
		if os.Geteuid() == 0 {
			root = " (as root add --allow-root: Jupyter refuses to serve as root without it)"
		}
		return fmt.Sprintf("open the notebooks with `%s`%s, or execute and check them with `roleprint notebook run`", launch, root)
	}
	return fmt.Sprintf("Jupyter here can execute notebooks but has no browser front end (`jupyter notebook` is not installed): "+
		"install it with `sudo apt-get install -y %s` (or `pip install jupyterlab`), or rerun `roleprint notebook setup --install-ui`; "+
		"meanwhile `roleprint notebook run` executes and checks them", uiPackage)
}

func runNotebook(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.stderr, `usage: roleprint notebook VERB [flags] [ARGS...]

verbs:
  setup  build GoNB (the version pinned in go.mod) and goimports, register GoNB with Jupyter
  list   list the notebooks and what each reproduces
  run    execute notebooks with jupyter nbconvert and check the executed copies
  check  check executed notebooks (error outputs, panics, failed tests, missing figures)

see docs/notebooks.md`)
		if len(args) == 0 {
			return usagef("missing verb")
		}
		return nil
	}
	switch args[0] {
	case "setup":
		return notebookSetup(ctx, e, args[1:])
	case "list":
		return notebookList(e, args[1:])
	case "run":
		return notebookRun(ctx, e, args[1:])
	case "check":
		return notebookCheck(e, args[1:])
	}
	return usagef("unknown verb %q (want setup, list, run or check)", args[0])
}

// gonbVersion returns the GoNB version this binary was built with.
func gonbVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == gonbModule {
				if d.Replace != nil && d.Replace.Version != "" {
					return d.Replace.Version
				}
				if d.Version != "" && d.Version != "(devel)" {
					return d.Version
				}
			}
		}
	}
	return defaultGonbVersion
}

// setupStep is one command of `notebook setup`.
type setupStep struct {
	what string
	run  func(ctx context.Context) error
	show string // the equivalent shell command
}

// notebookSetup builds GoNB from its module directory (`go install
// module@version` fails for GoNB because the module proxy refuses its
// version list), installs goimports, and registers the kernel.
func notebookSetup(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "notebook setup", "")
	version := fs.String("gonb-version", gonbVersion(), "GoNB version to build")
	goimports := fs.String("goimports-version", defaultGoimportsVersion, "golang.org/x/tools version for goimports")
	gobin := fs.String("gobin", "", "where to put the gonb and goimports binaries (default $GOBIN or $(go env GOPATH)/bin)")
	dry := fs.Bool("dry-run", false, "print the commands instead of running them")
	installUI := fs.Bool("install-ui", false, "also install Jupyter's browser front end ("+uiPackage+") with apt-get when it is missing")
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	if fs.NArg() > 0 {
		return usagef("notebook setup takes no files")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return errors.New("the go command is not on PATH: GoNB compiles every cell with Go; install Go first (https://go.dev/dl)")
	}
	bin, err := gonbBinDir(ctx, goTool, *gobin)
	if err != nil {
		return err
	}
	gonbBin := filepath.Join(bin, "gonb")
	jupyter, jerr := exec.LookPath("jupyter")
	if jerr != nil && !*dry {
		return fmt.Errorf("jupyter is not installed; on Debian/Ubuntu run:\n  sudo apt-get install -y %s\n(or `pip install jupyterlab`), then run `roleprint notebook setup` again", aptPackages)
	}
	mod := gonbModule + "@" + *version
	var buildDir string
	steps := []setupStep{
		{
			what: "download " + mod,
			show: "go mod download -json " + mod,
			run: func(ctx context.Context) error {
				out, err := exec.CommandContext(ctx, goTool, "mod", "download", "-json", mod).Output()
				if err != nil {
					return fmt.Errorf("go mod download %s: %w", mod, exitDetail(err))
				}
				var info struct{ Dir, Error string }
				if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
					return fmt.Errorf("go mod download %s: no module directory (%s)", mod, info.Error)
				}
				tmp, err := os.MkdirTemp("", "gonb-build-")
				if err != nil {
					return err
				}
				buildDir = tmp
				return os.CopyFS(tmp, os.DirFS(info.Dir))
			},
		},
		{
			what: "build gonb into " + gonbBin,
			show: "cp -r $(go mod download -json " + mod + " | jq -r .Dir) BUILD && cd BUILD && chmod -R u+w . && GOFLAGS=-mod=mod go build -o " + gonbBin + " .",
			run: func(ctx context.Context) error {
				defer os.RemoveAll(buildDir)
				if err := os.MkdirAll(bin, 0o755); err != nil {
					return err
				}
				makeWritable(buildDir)
				cmd := exec.CommandContext(ctx, goTool, "build", "-o", gonbBin, ".")
				cmd.Dir = buildDir
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
				cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
				return cmd.Run()
			},
		},
		{
			what: "install goimports " + *goimports,
			show: "GOBIN=" + bin + " go install golang.org/x/tools/cmd/goimports@" + *goimports,
			run: func(ctx context.Context) error {
				cmd := exec.CommandContext(ctx, goTool, "install", "golang.org/x/tools/cmd/goimports@"+*goimports)
				cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=")
				cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
				return cmd.Run()
			},
		},
		{
			what: "register the gonb kernel with Jupyter",
			show: "PATH=" + bin + ":$PATH " + gonbBin + " --install --force_deps --raw_error",
			run: func(ctx context.Context) error {
				cmd := exec.CommandContext(ctx, gonbBin, "--install", "--force_deps", "--raw_error")
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
				return cmd.Run()
			},
		},
	}
	if *installUI && (jerr != nil || notebookFrontEnd(ctx, jupyter) == "") {
		steps = append(steps, aptStep(e, uiPackage))
	}
	if *dry {
		if jerr != nil {
			fmt.Fprintf(e.stdout, "# jupyter is missing: sudo apt-get install -y %s\n", aptPackages)
		}
		for _, s := range steps {
			fmt.Fprintf(e.stdout, "# %s\n%s\n", s.what, s.show)
		}
		return nil
	}
	for _, s := range steps {
		e.Logf("notebook setup: %s", s.what)
		if err := s.run(ctx); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	out, _ := exec.CommandContext(ctx, jupyter, "kernelspec", "list").Output()
	if !bytes.Contains(out, []byte("gonb")) {
		return errors.New("gonb does not appear in `jupyter kernelspec list` after installing it")
	}
	e.Logf("notebook setup: done; GoNB %s is registered; %s.", *version, frontEndAdvice(notebookFrontEnd(ctx, jupyter)))
	if !strings.Contains(os.Getenv("PATH"), bin) {
		e.Logf("notebook setup: add %s to PATH so that Jupyter finds gonb and goimports", bin)
	}
	return nil
}

// aptStep installs Debian packages with apt-get (through sudo when not
// root).
func aptStep(e *env, pkgs ...string) setupStep {
	args := append([]string{"apt-get", "install", "-y", "--no-install-recommends"}, pkgs...)
	if os.Geteuid() != 0 {
		args = append([]string{"sudo"}, args...)
	}
	return setupStep{
		what: "install " + strings.Join(pkgs, " "),
		show: strings.Join(args, " "),
		run: func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, args[0], args[1:]...)
			cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
			cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: %w", strings.Join(args, " "), err)
			}
			return nil
		},
	}
}

// gonbBinDir is where the gonb and goimports binaries go: gobin, else
// $GOBIN, else the first $(go env GOPATH)/bin.
func gonbBinDir(ctx context.Context, goTool, gobin string) (string, error) {
	bin := gobin
	if bin == "" {
		bin = os.Getenv("GOBIN")
	}
	if bin == "" {
		out, err := exec.CommandContext(ctx, goTool, "env", "GOPATH").Output()
		if err != nil {
			return "", fmt.Errorf("go env GOPATH: %w", err)
		}
		bin = filepath.Join(strings.Split(strings.TrimSpace(string(out)), string(os.PathListSeparator))[0], "bin")
	}
	return bin, nil
}

// makeWritable makes the copy of a module (read-only in the module cache)
// writable for the build: folders 0755, files 0644.
func makeWritable(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			mode := os.FileMode(0o644)
			if d.IsDir() {
				mode = 0o755
			}
			os.Chmod(p, mode)
		}
		return nil
	})
}

// exitDetail adds a command's stderr to its error.
func exitDetail(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return err
}

// notebookDir returns the notebooks folder of the checkout.
func notebookDir() string { return filepath.Join(kernel.RepoRoot(), "notebooks") }

// notebookInfo is one entry of `notebook list --json`.
type notebookInfo struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Title     string `json:"title"`
	MinImages int    `json:"min_images"`
}

// readNotebookInfo reads a notebook's title (its first heading) and its
// figure requirement.
func readNotebookInfo(path string) (notebookInfo, error) {
	b, err := fsx.ReadFile(path, fsx.MaxInput)
	if err != nil {
		return notebookInfo{}, err
	}
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
		} `json:"cells"`
		Metadata struct {
			RolePrint struct {
				MinImages int `json:"min_images"`
			} `json:"roleprint"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return notebookInfo{}, fmt.Errorf("%s: not a notebook: %w", path, err)
	}
	info := notebookInfo{Name: strings.TrimSuffix(filepath.Base(path), ".ipynb"), Path: path, MinImages: nb.Metadata.RolePrint.MinImages}
	for _, c := range nb.Cells {
		if c.CellType != "markdown" {
			continue
		}
		var lines []string
		if json.Unmarshal(c.Source, &lines) != nil {
			var s string
			json.Unmarshal(c.Source, &s)
			lines = strings.Split(s, "\n")
		}
		for _, l := range lines {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") {
				info.Title = strings.TrimSpace(strings.TrimLeft(t, "#"))
				return info, nil
			}
		}
	}
	return info, nil
}

// listNotebooks returns the numbered notebooks of the checkout.
func listNotebooks() ([]notebookInfo, error) {
	paths, err := filepath.Glob(filepath.Join(notebookDir(), "[0-9]*.ipynb"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []notebookInfo
	for _, p := range paths {
		info, err := readNotebookInfo(p)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

func notebookList(e *env, args []string) error {
	fs := newFlags(e, "notebook list", "")
	asJSON := fs.Bool("json", false, `print one JSON object {"notebooks": [{name, path, title, min_images}]}`)
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	nbs, err := listNotebooks()
	if err != nil {
		return err
	}
	if len(nbs) == 0 {
		return fmt.Errorf("no notebooks found in %s", notebookDir())
	}
	if *asJSON {
		return e.JSON(map[string]any{"notebooks": nbs})
	}
	for _, n := range nbs {
		fmt.Fprintf(e.stdout, "%-28s %s\n", n.Name, n.Title)
	}
	return nil
}

// notebookRunResult is one notebook of `notebook run --json`.
type notebookRunResult struct {
	Name     string          `json:"name"`
	Executed string          `json:"executed"`
	Seconds  float64         `json:"seconds"`
	OK       bool            `json:"ok"`
	Report   *nbcheck.Report `json:"report,omitempty"`
	Error    string          `json:"error,omitempty"`
	Saved    bool            `json:"saved,omitempty"`
}

// notebookRun executes notebooks with jupyter nbconvert (like CI) and
// checks the executed copies.
func notebookRun(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "notebook run", "[NOTEBOOK...]")
	quick := fs.Bool("quick", false, "quick mode (ROLEPRINT_QUICK=1): small data, minutes for all notebooks")
	out := fs.String("out", "", "output root (ROLEPRINT_OUT; default out/notebooks in the checkout)")
	timeout := fs.Duration("timeout", 10*time.Minute, "per-cell timeout")
	asJSON := fs.Bool("json", false, `print one JSON object {"ok", "notebooks": [{name, executed, seconds, ok, report, saved}]}`)
	save := fs.Bool("save", false, "replace each notebook in notebooks/ by its executed copy (atomically, only when it passes the check), with the hash of the code it imports in its metadata")
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	var paths []string
	if fs.NArg() == 0 {
		nbs, err := listNotebooks()
		if err != nil {
			return err
		}
		for _, n := range nbs {
			paths = append(paths, n.Path)
		}
	}
	for _, a := range fs.Args() {
		p := a
		if !strings.HasSuffix(p, ".ipynb") {
			p = filepath.Join(notebookDir(), a+".ipynb")
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("notebook %s: %w", a, err)
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		return fmt.Errorf("no notebooks found in %s", notebookDir())
	}
	root := *out
	if root == "" {
		root = os.Getenv(kernel.OutEnv)
	}
	if root == "" {
		root = filepath.Join(kernel.RepoRoot(), "out", "notebooks")
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	code, err := notebooksCodeStamp()
	if err != nil {
		return err
	}
	if err := checkOutRoot(e, root, code, *save); err != nil {
		return err
	}
	jupyter, err := exec.LookPath("jupyter")
	if err != nil {
		return fmt.Errorf("jupyter is not installed; on Debian/Ubuntu: sudo apt-get install -y %s; then `roleprint notebook setup`", aptPackages)
	}
	executedDir := filepath.Join(root, "executed")
	if err := os.MkdirAll(executedDir, 0o755); err != nil {
		return err
	}
	env := append(os.Environ(), kernel.OutEnv+"="+root, "PYDEVD_DISABLE_FILE_VALIDATION=1")
	// GoNB runs goimports and go from PATH: make sure the folder where
	// `notebook setup` put them is on it.
	if out, err := exec.CommandContext(ctx, "go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		bin := strings.TrimSpace(lines[0])
		if bin == "" && len(lines) > 1 {
			bin = filepath.Join(strings.Split(strings.TrimSpace(lines[1]), string(os.PathListSeparator))[0], "bin")
		}
		if bin != "" {
			env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
	}
	if *quick {
		env = append(env, kernel.QuickEnv+"=1")
	}
	var results []notebookRunResult
	allOK := true
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".ipynb")
		e.Logf("notebook run: executing %s", name)
		res := notebookRunResult{Name: name, Executed: filepath.Join(executedDir, name+".ipynb")}
		stamp, err := notebookStamp(p, *quick)
		if err != nil {
			return err
		}
		start := time.Now()
		cmd := exec.CommandContext(ctx, jupyter, "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
			fmt.Sprintf("--ExecutePreprocessor.timeout=%d", int(timeout.Seconds())),
			"--output-dir", executedDir, "--output", name, p)
		cmd.Env = env
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		runErr := cmd.Run()
		res.Seconds = time.Since(start).Seconds()
		os.WriteFile(filepath.Join(executedDir, name+".log"), log.Bytes(), 0o644)
		if runErr != nil {
			res.Error = fmt.Sprintf("nbconvert: %v (log: %s)", runErr, filepath.Join(executedDir, name+".log"))
		} else if rep, err := nbcheck.CheckFile(res.Executed); err != nil {
			res.Error = err.Error()
		} else {
			res.Report = rep
			res.OK = rep.OK()
		}
		if *save {
			if err := notebookSave(e, &res, p, root, stamp); err != nil {
				return err
			}
		}
		allOK = allOK && res.OK
		results = append(results, res)
		if !*asJSON {
			printRunResult(e.stdout, res)
		}
	}
	if *asJSON {
		if err := e.JSON(map[string]any{"ok": allOK, "notebooks": results}); err != nil {
			return err
		}
	}
	if !allOK {
		return errors.New("some notebooks failed their check")
	}
	return nil
}

func printRunResult(w io.Writer, r notebookRunResult) {
	status := "ok"
	if !r.OK {
		status = "FAILED"
	}
	fmt.Fprintf(w, "%-6s %-28s %6.1fs  %s\n", status, r.Name, r.Seconds, r.Executed)
	if r.Error != "" {
		fmt.Fprintf(w, "       %s\n", r.Error)
	}
	if r.Report != nil {
		for _, p := range r.Report.Problems {
			fmt.Fprintf(w, "       %s\n", p)
		}
	}
}

func notebookCheck(e *env, args []string) error {
	fs := newFlags(e, "notebook check", "EXECUTED.ipynb...")
	asJSON := fs.Bool("json", false, `print one JSON object {"ok", "notebooks": [report...]}`)
	fresh := fs.Bool("fresh", false, "check the committed notebooks (default: all of notebooks/): outputs pass the checker and are no older than the code they import (stored code hash)")
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	if *fresh {
		return notebookCheckFresh(e, fs.Args(), *asJSON)
	}
	if fs.NArg() == 0 {
		return usagef("notebook check needs executed notebooks")
	}
	var reports []*nbcheck.Report
	ok := true
	for _, p := range fs.Args() {
		rep, err := nbcheck.CheckFile(p)
		if err != nil {
			return err
		}
		reports = append(reports, rep)
		ok = ok && rep.OK()
		if !*asJSON {
			printRunResult(e.stdout, notebookRunResult{Name: filepath.Base(p), Executed: p, OK: rep.OK(), Report: rep})
		}
	}
	if *asJSON {
		if err := e.JSON(map[string]any{"ok": ok, "notebooks": reports}); err != nil {
			return err
		}
	}
	if !ok {
		return errors.New("some notebooks failed their check")
	}
	return nil
}

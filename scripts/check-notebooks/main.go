// Command check-notebooks checks executed Jupyter notebooks (see package
// kernel/nbcheck) and exits 1 when any has an error output, a panic, a
// failed test, an "error" or "exit status" line, a cell that never ran, or
// fewer images than its metadata asks for. CI runs it on the notebooks
// that scripts/notebooks-ci.sh executed:
//
//	go run ./scripts/check-notebooks out/notebooks/executed/*.ipynb
//
// With --json it prints one JSON object {"ok": bool, "notebooks": [...]}.
//
// With --fresh it checks committed notebooks instead (default: every
// notebooks/NN-*.ipynb of the checkout it runs in): their outputs pass the
// same checks and their stored code hash matches the code they import now
// (package kernel/nbfresh); a stale one is refreshed with
// `roleprint notebook run --quick --save NAME`.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/kernel/nbcheck"
	"github.com/roleprint/roleprint/kernel/nbfresh"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check-notebooks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object with every report")
	fresh := fs.Bool("fresh", false, "check committed notebooks (default notebooks/NN-*.ipynb): outputs pass and are no older than the code they import")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: check-notebooks [--json] EXECUTED.ipynb...\n       check-notebooks --fresh [--json] [NOTEBOOK.ipynb...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	paths := fs.Args()
	if *fresh && len(paths) == 0 {
		paths, _ = filepath.Glob(filepath.Join(kernel.RepoRoot(), "notebooks", "[0-9]*.ipynb"))
	}
	if len(paths) == 0 {
		fs.Usage()
		return 2
	}
	ok := true
	var reports []*nbcheck.Report
	for _, path := range paths {
		rep, err := nbcheck.CheckFile(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			ok = false
			rep = &nbcheck.Report{Notebook: path, Problems: []nbcheck.Problem{{Kind: "unreadable", Detail: err.Error()}}}
		}
		if *fresh {
			st, err := nbfresh.CheckFile(kernel.RepoRoot(), path)
			switch {
			case err != nil:
				rep.Problems = append(rep.Problems, nbcheck.Problem{Kind: "stale", Detail: err.Error()})
			case !st.Fresh():
				rep.Problems = append(rep.Problems, nbcheck.Problem{Kind: "stale", Detail: st.String()})
			}
		}
		reports = append(reports, rep)
		ok = ok && rep.OK()
		if *asJSON {
			continue
		}
		status := "ok"
		if !rep.OK() {
			status = "FAILED"
		}
		fmt.Fprintf(stdout, "%-6s %s (%d/%d code cells ran, %d images, %d required)\n",
			status, path, rep.Executed, rep.CodeCells, rep.Images, rep.MinImages)
		for _, p := range rep.Problems {
			fmt.Fprintf(stdout, "       %s\n", p)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"ok": ok, "notebooks": reports})
	}
	if !ok {
		return 1
	}
	return 0
}

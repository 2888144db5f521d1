// Command check-notebooks checks executed Jupyter notebooks (see package
// kernel/nbcheck) and exits 1 when any has an error output, a panic, a
// failed test, an "error" or "exit status" line, a cell that never ran, or
// fewer images than its metadata asks for. CI runs it on the notebooks
// that scripts/notebooks-ci.sh executed:
//
//	go run ./scripts/check-notebooks out/notebooks/executed/*.ipynb
//
// With --json it prints one JSON object {"ok": bool, "notebooks": [...]}.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/roleprint/roleprint/kernel/nbcheck"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check-notebooks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object with every report")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: check-notebooks [--json] EXECUTED.ipynb...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	ok := true
	var reports []*nbcheck.Report
	for _, path := range fs.Args() {
		rep, err := nbcheck.CheckFile(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			ok = false
			rep = &nbcheck.Report{Notebook: path, Problems: []nbcheck.Problem{{Kind: "unreadable", Detail: err.Error()}}}
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

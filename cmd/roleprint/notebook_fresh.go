package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/kernel/nbcheck"
	"github.com/roleprint/roleprint/kernel/nbfresh"
)

// notebookStamp computes, before a notebook runs, the stamp its saved copy
// will carry (the hash of the code it imports, as it is now: code changed
// during the run makes the saved notebook stale, as it should).
func notebookStamp(path string, quick bool) (nbfresh.Stamp, error) {
	st, err := nbfresh.CheckFile(kernel.RepoRoot(), path)
	if err != nil {
		return nbfresh.Stamp{}, err
	}
	return nbfresh.Stamp{CodeHash: st.Current, Packages: st.Packages, Quick: quick}, nil
}

// notebookSave replaces the committed notebook src with its executed copy,
// stamped; only a run that passed its check is saved.
// Paths of this machine in the outputs (the output root, the checkout) are
// saved as $ROLEPRINT_OUT and <checkout>.
func notebookSave(e *env, res *notebookRunResult, src, outRoot string, stamp nbfresh.Stamp) error {
	if !res.OK {
		e.Logf("notebook run: %s not saved: its run failed the check", res.Name)
		return nil
	}
	repl := []nbfresh.Replacement{{Old: outRoot, New: "$ROLEPRINT_OUT"}, {Old: kernel.RepoRoot(), New: "<checkout>"}}
	if strings.HasPrefix(kernel.RepoRoot(), outRoot) {
		repl[0], repl[1] = repl[1], repl[0]
	}
	if err := nbfresh.Save(res.Executed, src, stamp, repl...); err != nil {
		return err
	}
	res.Saved = true
	e.Logf("notebook run: saved %s with its outputs (code %s)", src, stamp.CodeHash[:19])
	return nil
}

// freshResult is one notebook of `notebook check --fresh --json`.
type freshResult struct {
	Notebook string          `json:"notebook"`
	Fresh    bool            `json:"fresh"`
	Problem  string          `json:"problem,omitempty"`
	Status   nbfresh.Status  `json:"status"`
	Report   *nbcheck.Report `json:"report"`
}

// notebookCheckFresh checks committed notebooks (paths, default every one
// in notebooks/): their outputs pass the checker and their stored code
// hash matches the code they import now.
func notebookCheckFresh(e *env, paths []string, asJSON bool) error {
	if len(paths) == 0 {
		nbs, err := listNotebooks()
		if err != nil {
			return err
		}
		for _, n := range nbs {
			paths = append(paths, n.Path)
		}
	}
	if len(paths) == 0 {
		return fmt.Errorf("no notebooks found in %s", notebookDir())
	}
	ok := true
	var results []freshResult
	for _, p := range paths {
		st, err := nbfresh.CheckFile(kernel.RepoRoot(), p)
		if err != nil {
			return err
		}
		rep, err := nbcheck.CheckFile(p)
		if err != nil {
			return err
		}
		r := freshResult{Notebook: p, Fresh: st.Fresh() && rep.OK(), Status: st, Report: rep}
		if !st.Fresh() {
			r.Problem = st.String()
		}
		ok = ok && r.Fresh
		results = append(results, r)
		if !asJSON {
			status := "fresh"
			if !r.Fresh {
				status = "STALE"
			}
			fmt.Fprintf(e.stdout, "%-6s %s\n", status, filepath.Base(p))
			if r.Problem != "" {
				fmt.Fprintf(e.stdout, "       %s\n", r.Problem)
			}
			for _, pr := range rep.Problems {
				fmt.Fprintf(e.stdout, "       %s\n", pr)
			}
		}
	}
	if asJSON {
		if err := e.JSON(map[string]any{"ok": ok, "notebooks": results}); err != nil {
			return err
		}
	}
	if !ok {
		return errors.New("some committed notebooks are stale or fail their check; refresh with `roleprint notebook run --quick --save`")
	}
	return nil
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"

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

// outRootStampName is the file of a notebook output root that records the
// code its cached results were computed with.
const outRootStampName = "code.json"

// outRootStamp is that record: the hash of the code every notebook in
// notebooks/ imports, taken together.
type outRootStamp struct {
	CodeHash string   `json:"code_hash"`
	Packages []string `json:"code_packages"`
}

// notebooksCodeStamp hashes the code the notebooks in notebooks/ import,
// all of them together: an output root's caches are shared between
// notebooks (03 and 07 load 02's Table 2), so a change to any of it can
// make a cached result stale.
func notebooksCodeStamp() (outRootStamp, error) {
	nbs, err := listNotebooks()
	if err != nil {
		return outRootStamp{}, err
	}
	root := kernel.RepoRoot()
	module, err := nbfresh.ModulePath(root)
	if err != nil {
		return outRootStamp{}, err
	}
	seen := map[string]bool{}
	var pkgs []string
	for _, n := range nbs {
		b, err := os.ReadFile(n.Path)
		if err != nil {
			return outRootStamp{}, err
		}
		imp, err := nbfresh.Imports(b, module)
		if err != nil {
			return outRootStamp{}, fmt.Errorf("%s: %w", n.Path, err)
		}
		for _, p := range imp {
			if !seen[p] {
				seen[p] = true
				pkgs = append(pkgs, p)
			}
		}
	}
	slices.Sort(pkgs)
	h, err := nbfresh.Hash(root, pkgs)
	return outRootStamp{CodeHash: h, Packages: pkgs}, err
}

// checkOutRoot guards saved notebooks against results cached by other
// code. Notebook results (kernel.Memo) and Table 2's round checkpoints are
// kept in the output root by configuration, so a cell after a code change
// loads what the older code computed. An output root that holds nothing
// but executed/ is stamped with cur and used. One stamped with cur is
// used. Any other (stamped with other code, or holding results with no
// stamp, e.g. from a notebook run in Jupyter) is refused with save, since
// the saved outputs would carry the new code's hash over the old code's
// numbers; without save a note says so and the stamp is left as it is.
func checkOutRoot(e *env, root string, cur outRootStamp, save bool) error {
	path := filepath.Join(root, outRootStampName)
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	used := false
	for _, d := range entries {
		if n := d.Name(); n != "executed" && n != outRootStampName {
			used = true
		}
	}
	var stored outRootStamp
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &stored); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if stored.CodeHash == cur.CodeHash || !used {
		if stored.CodeHash == cur.CodeHash {
			return nil
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
		b, err := json.MarshalIndent(cur, "", "  ")
		if err != nil {
			return err
		}
		return fsx.WriteFile(path, append(b, '\n'), 0o644)
	}
	what := "results cached by other code (" + outRootStampName + ": " + short(stored.CodeHash) + ", the code now: " + short(cur.CodeHash) + ")"
	if stored.CodeHash == "" {
		what = "results with no record of the code that computed them (no " + outRootStampName + ": a notebook run in Jupyter, or an older roleprint)"
	}
	if save {
		return fmt.Errorf("%s holds %s; saved notebooks would show them under the code's hash now: remove it (rm -r %s) or pass --out with a new folder", root, what, root)
	}
	e.Logf("notebook run: note: %s holds %s; cells reuse them (an empty --out recomputes everything)", root, what)
	return nil
}

// short abbreviates a "sha256:HEX" hash for messages.
func short(h string) string {
	if len(h) > 19 {
		return h[:19]
	}
	if h == "" {
		return "none"
	}
	return h
}

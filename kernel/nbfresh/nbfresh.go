// Package nbfresh tells whether a notebook's committed outputs are as new
// as the code they show: it hashes the Go source of the module packages a
// notebook imports (and everything of this module they depend on, as
// `go list -deps` sees it), stores the hash in the notebook's metadata when
// the notebook is executed and saved (`roleprint notebook run --save`), and
// compares it with the hash of the code now (`roleprint notebook check
// --fresh`, and a Go test over notebooks/ that needs no Jupyter).
//
// The hash covers each package's non-test Go files and embedded files
// (their import path, name and content), so a change to a library
// function, a default or an embedded table makes the notebooks that use it
// stale, while a change to a test or to a package they do not use does not.
package nbfresh

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// MetadataKey is the notebook metadata object RolePrint keeps its fields in
// ({"metadata": {"roleprint": {...}}}).
const MetadataKey = "roleprint"

// Stamp is what a saved notebook records about the code it was run with.
type Stamp struct {
	// CodeHash is "sha256:" and the hex digest of the packages' sources.
	CodeHash string `json:"code_hash"`
	// Packages are the module packages the notebook imports directly.
	Packages []string `json:"code_packages"`
	// Quick is true when the outputs come from quick mode.
	Quick bool `json:"quick,omitempty"`
}

// Status is the result of comparing a notebook's stamp with the code.
type Status struct {
	// Notebook is the path checked.
	Notebook string `json:"notebook"`
	// Stored is the stamp in the notebook (nil: never saved with one).
	Stored *Stamp `json:"stored,omitempty"`
	// Current is the hash of the code now.
	Current string `json:"current"`
	// Packages are the module packages the notebook imports now.
	Packages []string `json:"packages"`
}

// Fresh reports whether the notebook has a stamp and it matches the code.
func (s Status) Fresh() bool { return s.Stored != nil && s.Stored.CodeHash == s.Current }

// String says what is wrong, or "fresh".
func (s Status) String() string {
	switch {
	case s.Stored == nil:
		return fmt.Sprintf("%s: no code hash in its metadata (never saved with `roleprint notebook run --save`)", s.Notebook)
	case !s.Fresh():
		return fmt.Sprintf("%s: outputs are older than the code (stored %s, code now %s); refresh with `roleprint notebook run --quick --save %s`",
			s.Notebook, short(s.Stored.CodeHash), short(s.Current), strings.TrimSuffix(filepath.Base(s.Notebook), ".ipynb"))
	}
	return s.Notebook + ": fresh"
}

func short(h string) string {
	if len(h) > 19 {
		return h[:19]
	}
	return h
}

// ModulePath returns the module path declared in root/go.mod.
func ModulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("nbfresh: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("nbfresh: %s: no module line", filepath.Join(root, "go.mod"))
}

// notebookJSON is the part of a notebook nbfresh reads.
type notebookJSON struct {
	Cells []struct {
		CellType string          `json:"cell_type"`
		Source   json.RawMessage `json:"source"`
	} `json:"cells"`
	Metadata map[string]json.RawMessage `json:"metadata"`
}

// source joins a cell's source (a string or a list of strings).
func source(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	return strings.Join(parts, ""), nil
}

// Imports returns the packages of module (a module path) that the
// notebook's code cells name in quotes (their imports), sorted.
func Imports(nb []byte, module string) ([]string, error) {
	var n notebookJSON
	if err := json.Unmarshal(nb, &n); err != nil {
		return nil, fmt.Errorf("nbfresh: not a notebook: %w", err)
	}
	re := regexp.MustCompile(`"(` + regexp.QuoteMeta(module) + `(?:/[A-Za-z0-9_./-]+)?)"`)
	seen := map[string]bool{}
	for i, c := range n.Cells {
		if c.CellType != "code" {
			continue
		}
		src, err := source(c.Source)
		if err != nil {
			return nil, fmt.Errorf("nbfresh: cell %d: source: %w", i+1, err)
		}
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			seen[m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// goPackage is one package as `go list -json` describes it.
type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	EmbedFiles []string
	Module     *struct{ Main bool }
}

// Hash returns "sha256:HEX" over the sources of pkgs and of every package
// of the main module they depend on (non-test Go files and embedded files:
// import path, file name, content), listed by `go list -deps` run in root.
// No packages hash to the digest of nothing.
func Hash(root string, pkgs []string) (string, error) {
	h := sha256.New()
	if len(pkgs) > 0 {
		args := append([]string{"list", "-deps", "-json=ImportPath,Dir,GoFiles,CgoFiles,EmbedFiles,Module"}, pkgs...)
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("nbfresh: go list -deps %s: %v: %s", strings.Join(pkgs, " "), err, strings.TrimSpace(stderr.String()))
		}
		var list []goPackage
		dec := json.NewDecoder(bytes.NewReader(out))
		for dec.More() {
			var p goPackage
			if err := dec.Decode(&p); err != nil {
				return "", fmt.Errorf("nbfresh: reading go list output: %w", err)
			}
			if p.Module != nil && p.Module.Main {
				list = append(list, p)
			}
		}
		sort.Slice(list, func(i, j int) bool { return list[i].ImportPath < list[j].ImportPath })
		for _, p := range list {
			files := append(append(append([]string(nil), p.GoFiles...), p.CgoFiles...), p.EmbedFiles...)
			sort.Strings(files)
			for _, f := range files {
				b, err := os.ReadFile(filepath.Join(p.Dir, f))
				if err != nil {
					return "", fmt.Errorf("nbfresh: %w", err)
				}
				// Line endings do not change what the code does.
				b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
				fmt.Fprintf(h, "%s\x00%s\x00%d\x00", p.ImportPath, filepath.ToSlash(f), len(b))
				h.Write(b)
			}
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// Current returns the module packages notebook nb imports and the hash of
// their code now, with root the module's root folder.
func Current(root string, nb []byte) (pkgs []string, hash string, err error) {
	module, err := ModulePath(root)
	if err != nil {
		return nil, "", err
	}
	if pkgs, err = Imports(nb, module); err != nil {
		return nil, "", err
	}
	hash, err = Hash(root, pkgs)
	return pkgs, hash, err
}

// Stored returns the stamp in a notebook's metadata (nil when it has none).
func Stored(nb []byte) (*Stamp, error) {
	var n notebookJSON
	if err := json.Unmarshal(nb, &n); err != nil {
		return nil, fmt.Errorf("nbfresh: not a notebook: %w", err)
	}
	raw, ok := n.Metadata[MetadataKey]
	if !ok {
		return nil, nil
	}
	var s Stamp
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("nbfresh: metadata.%s: %w", MetadataKey, err)
	}
	if s.CodeHash == "" {
		return nil, nil
	}
	return &s, nil
}

// CheckFile compares the stamp of the notebook at path with the code of
// the module rooted at root.
func CheckFile(root, path string) (Status, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Status{}, fmt.Errorf("nbfresh: %w", err)
	}
	st := Status{Notebook: path}
	if st.Stored, err = Stored(b); err != nil {
		return st, fmt.Errorf("%s: %w", path, err)
	}
	if st.Packages, st.Current, err = Current(root, b); err != nil {
		return st, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

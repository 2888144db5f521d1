package llm

import (
	"github.com/roleprint/roleprint/internal/fsx"

	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
)

// Prompts is a set of prompt templates (Go text/template files) with one
// file per prompt: embedded defaults, any of which a folder may replace.
// A rendered template loses a single trailing newline, so a file may end
// with one.
type Prompts struct {
	byName map[string]*template.Template
	// SHA256 is each template's file hash (hex), by file name: what the
	// manifests record.
	SHA256 map[string]string
	// Source is each template's origin, by file name: "embedded" or the
	// file's path.
	Source map[string]string
}

// LoadPrompts reads the templates names from embedded (under embeddedDir)
// and, when dir is not "", lets every one of them found in dir replace
// the embedded file. A file in dir ending in .tmpl that is not one of
// names is an error (a misspelt name would otherwise be silently
// ignored). funcs are the functions the templates may call; a missing
// key in a template's data is an error.
func LoadPrompts(embedded fs.FS, embeddedDir string, names []string, dir string, funcs template.FuncMap) (*Prompts, error) {
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("prompt templates: %w", err)
		}
		known := map[string]bool{}
		for _, n := range names {
			known[n] = true
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".tmpl") && !known[e.Name()] {
				return nil, fmt.Errorf("prompt templates: %s: unknown template (want some of %s)",
					filepath.Join(dir, e.Name()), strings.Join(names, ", "))
			}
		}
	}
	p := &Prompts{byName: map[string]*template.Template{}, SHA256: map[string]string{}, Source: map[string]string{}}
	for _, name := range names {
		var b []byte
		src := "embedded"
		if dir != "" {
			path := filepath.Join(dir, name)
			var err error
			b, err = fsx.ReadFile(path, fsx.MaxInput)
			switch {
			case err == nil:
				src = path
			case errors.Is(err, fs.ErrNotExist):
				b = nil
			default:
				return nil, fmt.Errorf("prompt templates: %w", err)
			}
		}
		if b == nil {
			var err error
			if b, err = fs.ReadFile(embedded, embeddedDir+"/"+name); err != nil {
				return nil, fmt.Errorf("prompt templates: embedded %s: %w", name, err)
			}
		}
		tp, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(string(b))
		if err != nil {
			return nil, fmt.Errorf("prompt templates: %s: %w", src, err)
		}
		sum := sha256.Sum256(b)
		p.byName[name], p.SHA256[name], p.Source[name] = tp, hex.EncodeToString(sum[:]), src
	}
	return p, nil
}

// Render executes the named template with data.
func (p *Prompts) Render(name string, data any) (string, error) {
	tp := p.byName[name]
	if tp == nil {
		return "", fmt.Errorf("prompt templates: no template %s", name)
	}
	var b bytes.Buffer
	if err := tp.Execute(&b, data); err != nil {
		return "", fmt.Errorf("prompt template %s (%s): %w", name, p.Source[name], err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// Hashes returns "name=sha256" for every template, sorted, for logs.
func (p *Prompts) Hashes() []string {
	var out []string
	for n, h := range p.SHA256 {
		out = append(out, n+"="+h)
	}
	sort.Strings(out)
	return out
}

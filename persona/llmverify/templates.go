package llmverify

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/roleprint/roleprint/internal/fsx"
)

//go:embed prompts/*.tmpl
var embeddedPrompts embed.FS

// The prompt template files; a --prompts folder may replace any of them.
const (
	// TemplateSystem is the system message of every request.
	TemplateSystem = "system.tmpl"
	// TemplateUtterances is the question of the Utterances view; its data
	// has .Sets, the two lists of utterances (each on one line).
	TemplateUtterances = "question-utterances.tmpl"
	// TemplateConversation is the question of the Conversation view; its
	// data has .Conversations, the two conversations rendered one
	// "[Speaker 1]: …" / "[Other A]: …" line per turn.
	TemplateConversation = "question-conversation.tmpl"
	// TemplateInstruction follows the question in zero-shot and K-shot
	// prompts (and in their demonstrations).
	TemplateInstruction = "instruction.tmpl"
	// TemplateInstructionCoT follows the question in chain-of-thought
	// prompts; it ends with the paper's cue, "Let's analyse step by step:".
	TemplateInstructionCoT = "instruction-cot.tmpl"
)

// TemplateNames lists every prompt template file, in a fixed order.
var TemplateNames = []string{TemplateSystem, TemplateUtterances, TemplateConversation, TemplateInstruction, TemplateInstructionCoT}

// Templates are the prompt templates of a run (Go text/template files;
// the function inc adds one, for 1-based numbering). One rendered
// template loses a single trailing newline, so a file may end with one.
type Templates struct {
	byName map[string]*template.Template
	// SHA256 is each template's file hash (hex), by file name: what the
	// manifests record.
	SHA256 map[string]string
	// Source is each template's origin, by file name: "embedded" or the
	// file's path.
	Source map[string]string
}

// DefaultTemplates returns the embedded templates (prompts/*.tmpl). Their
// wording is RolePrint's, after the paper's Table 1 options: the
// chain-of-thought cue "Let's analyse step by step:" and the TRUE/FALSE
// answer are the paper's; its appendix's full prompts were not available
// when they were written, so replace them with --prompts DIR to use
// other wording.
func DefaultTemplates() (*Templates, error) {
	return loadTemplates(embeddedPrompts, "prompts", "")
}

// LoadTemplates returns the templates of dir: every file of TemplateNames
// found there replaces the embedded one, the others stay embedded. A file
// in dir ending in .tmpl that is not one of TemplateNames is an error (a
// misspelt name would otherwise be silently ignored).
func LoadTemplates(dir string) (*Templates, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("prompt templates: %w", err)
	}
	known := map[string]bool{}
	for _, n := range TemplateNames {
		known[n] = true
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".tmpl") && !known[e.Name()] {
			return nil, fmt.Errorf("prompt templates: %s: unknown template (want some of %s)",
				filepath.Join(dir, e.Name()), strings.Join(TemplateNames, ", "))
		}
	}
	return loadTemplates(embeddedPrompts, "prompts", dir)
}

func loadTemplates(embedded fs.FS, embeddedDir, dir string) (*Templates, error) {
	t := &Templates{byName: map[string]*template.Template{}, SHA256: map[string]string{}, Source: map[string]string{}}
	funcs := template.FuncMap{"inc": func(i int) int { return i + 1 }}
	for _, name := range TemplateNames {
		var b []byte
		src := "embedded"
		if dir != "" {
			p := filepath.Join(dir, name)
			var err error
			b, err = fsx.ReadFile(p, fsx.MaxInput)
			switch {
			case err == nil:
				src = p
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
		t.byName[name], t.SHA256[name], t.Source[name] = tp, hex.EncodeToString(sum[:]), src
	}
	return t, nil
}

// render executes the named template with data.
func (t *Templates) render(name string, data any) (string, error) {
	tp := t.byName[name]
	if tp == nil {
		return "", fmt.Errorf("prompt templates: no template %s", name)
	}
	var b bytes.Buffer
	if err := tp.Execute(&b, data); err != nil {
		return "", fmt.Errorf("prompt template %s (%s): %w", name, t.Source[name], err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// Hashes returns "name=sha256" for every template, sorted, for logs.
func (t *Templates) Hashes() []string {
	var out []string
	for n, h := range t.SHA256 {
		out = append(out, n+"="+h)
	}
	sort.Strings(out)
	return out
}

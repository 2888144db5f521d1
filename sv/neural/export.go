package neural

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Export for verifier bundles (sv/verifier): the trained weights without
// optimizer state, and the settings that rebuild the same model from files
// inside the bundle.

// SaveWeights writes the model and head variables of e's network (no
// optimizer state) to path as a checkpoint file, atomically.
func (e *Encoder) SaveWeights(path string) error {
	net, err := e.Network()
	if err != nil {
		return err
	}
	st := CheckpointState{Seed: e.cfg.Seed, Model: e.model.Name(), ModelConfig: e.model.Config(), Head: net.Head.Name(), Backend: net.BackendName}
	keep := func(p string) bool {
		return strings.HasPrefix(p, ModelScope+"/") || strings.HasPrefix(p, HeadScope+"/")
	}
	return writeCheckpointFile(path, net, st, nil, keep)
}

// ExportBundle writes e's weights to dir/prefix.rpck and, for the
// transformer, its vocabulary to dir (the embedded default one too). It
// returns the files written, by the setting that names them ("weights",
// "vocab"; names relative to dir), and the other settings that rebuild the
// model with them: settings without the training folder and with GloVe
// replaced by its width (the weights already hold the trained rows).
func (e *Encoder) ExportBundle(dir, prefix string, settings map[string]string) (files, out map[string]string, err error) {
	out = maps.Clone(settings)
	if out == nil {
		out = map[string]string{}
	}
	delete(out, SetCheckpointDir)
	delete(out, SetWeights)
	weights := prefix + ".rpck"
	if err := e.SaveWeights(filepath.Join(dir, weights)); err != nil {
		return nil, nil, err
	}
	files = map[string]string{SetWeights: weights}
	if t, ok := e.model.(*Transformer); ok {
		if _, ok := out["glove"]; ok {
			delete(out, "glove")
			out["embed_dim"] = fmt.Sprint(t.cfg.EmbedDim)
		}
		var vocab []byte
		name := DefaultVocabName + "-vocab.txt"
		if t.cfg.Vocab == "" {
			vocab = bertVocab
		} else {
			if vocab, err = fsx.ReadFile(t.cfg.Vocab, fsx.MaxInput); err != nil {
				return nil, nil, fmt.Errorf("encoder %s: vocabulary: %w", e.cfg.Name, err)
			}
			// Keep the base name: LoadTokenizer reads casing from it.
			name = filepath.Base(t.cfg.Vocab)
		}
		file := prefix + "-" + name
		if err := fsx.WriteFile(filepath.Join(dir, file), vocab, 0o600); err != nil {
			return nil, nil, err
		}
		files["vocab"] = file
		delete(out, "vocab")
	}
	return files, out, nil
}

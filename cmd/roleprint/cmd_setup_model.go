package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/speech/spkemb"
	"github.com/roleprint/roleprint/sv/neural"
)

// modelList collects --model values (repeatable, comma-separated).
type modelList []string

// String implements flag.Value.
func (m *modelList) String() string { return strings.Join(*m, ",") }

// Set implements flag.Value.
func (m *modelList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*m = append(*m, s)
		}
	}
	return nil
}

// paperRowNames lists the paper rows --model takes as names.
func paperRowNames() []string {
	var out []string
	for _, p := range neural.PaperCheckpoints {
		out = append(out, p.Row)
	}
	return out
}

// setupModelOutput is one fetched model in `setup --model --json`.
type setupModelOutput struct {
	Name       string   `json:"name"`
	Repository string   `json:"repository"`
	Revision   string   `json:"revision"`
	Commit     string   `json:"commit"`
	Dir        string   `json:"dir"`
	Files      []string `json:"files"`
	Encoder    string   `json:"encoder"`
}

// resolveModelName turns a --model value into a Hub reference: a paper
// row's checkpoint, or ORG/NAME[@REV] itself. A row whose model cannot be
// run or whose checkpoint the paper does not name (lisa) is an error saying why.
func resolveModelName(name string) (hub.Ref, string, error) {
	if p, ok := neural.PaperCheckpointFor(name); ok {
		if p.Note != "" {
			return hub.Ref{}, "", fmt.Errorf("setup --model %s: %s", name, p.Note)
		}
		r, err := hub.ParseRef(p.Checkpoint)
		return r, name, err
	}
	r, err := hub.ParseRef(name)
	if err != nil {
		return hub.Ref{}, "", usagef("--model: %v, or a paper row (%s)", err, strings.Join(paperRowNames(), ", "))
	}
	return r, neural.HFScheme + ":" + r.String(), nil
}

// setupModels fetches each model into the Hugging Face cache: a text
// encoder's configuration, tokenizer and weights (neural.SetupFiles), or
// a speaker model's ONNX files and configuration (spkemb.SpeakerFiles).
func setupModels(ctx context.Context, e *env, names []string, asJSON bool) error {
	c := hub.Default()
	c.Logf = e.Logf
	var out []setupModelOutput
	for _, name := range names {
		ref, encoder, err := resolveModelName(name)
		if err != nil {
			return err
		}
		e.Logf("setup model %s: %s from %s into %s", name, ref, c.Endpoint, c.CacheDir)
		speaker := false
		snap, files, err := c.Download(ctx, ref, func(f []hub.File) ([]string, error) {
			if isSpeakerRepository(f) {
				speaker = true
				return spkemb.SpeakerFiles(f)
			}
			return neural.SetupFiles(encoder, ref.ID)(f)
		})
		if err != nil {
			return fmt.Errorf("setup --model %s: %w", name, err)
		}
		if speaker {
			encoder = spkemb.Scheme + ref.String()
			e.Logf("setup model %s: commit %s, %d files in %s; a speaker model: run it as `speech reference --embedder %s` or `speech similarity --embedder %s`",
				name, snap.Commit, len(files), snap.Dir, encoder, encoder)
		} else {
			e.Logf("setup model %s: commit %s, %d files in %s; run it as --encoders %s (or %s_ft)", name, snap.Commit, len(files), snap.Dir, encoder, encoder)
		}
		rev := ref.Revision
		out = append(out, setupModelOutput{Name: name, Repository: ref.ID, Revision: rev, Commit: snap.Commit, Dir: snap.Dir, Files: files, Encoder: encoder})
	}
	if asJSON {
		return e.JSON(map[string]any{"models": out})
	}
	for _, m := range out {
		fmt.Fprintf(e.Stdout(), "%s\t%s@%s\t%s\n", m.Encoder, m.Repository, m.Commit, m.Dir)
	}
	return nil
}

// isSpeakerRepository tells a speaker-embedding model (ONNX files, no
// tokenizer: WeSpeaker's and 3D-Speaker's layout) from a text encoder.
func isSpeakerRepository(files []hub.File) bool {
	onnx := false
	for _, f := range files {
		switch f.Name {
		case "tokenizer.json", "vocab.txt", "vocab.json", "tokenizer_config.json", "sentencepiece.bpe.model", "spiece.model":
			return false
		}
		if strings.HasSuffix(f.Name, ".onnx") {
			onnx = true
		}
	}
	return onnx
}

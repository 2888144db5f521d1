package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/sv/neural"

	"github.com/roleprint/roleprint/internal/fsx"
)

// bertScoreJSON describes how `metrics --kind text` computed BERTScore.
type bertScoreJSON struct {
	// Model is the contextual model ("hf:ORG/NAME") or the static encoder
	// of the offline fallback.
	Model string `json:"model"`
	// Contextual is true for BERTScore proper (a Hub model's token states);
	// false for the offline fallback over static vectors.
	Contextual bool `json:"contextual"`
	// OfflineFallback labels the static-vector computation.
	OfflineFallback bool `json:"offline_fallback"`
	// Layer is the hidden layer whose token states were matched (0: the
	// embeddings), of Layers; LayerSource says why that layer.
	Layer       *int   `json:"layer"`
	Layers      int    `json:"layers"`
	LayerSource string `json:"layer_source"`
	IDF         bool   `json:"idf"`
	// Lang is the baseline language (bert_score's lang).
	Lang string `json:"lang"`
	// Baseline is the rescaling baseline, null when the scores are raw
	// only; Rescaled says whether *_rescaled scores are given.
	Baseline *baselineJSON `json:"baseline"`
	Rescaled bool          `json:"rescaled"`
	// Note says what is missing (no baseline, a static fallback).
	Note        string `json:"note"`
	Description string `json:"description"`
}

type baselineJSON struct {
	P      float64 `json:"p"`
	R      float64 `json:"r"`
	F      float64 `json:"f"`
	Source string  `json:"source"`
}

// bertScoreSetup is the resolved BERTScore configuration of a text run.
type bertScoreSetup struct {
	info     bertScoreJSON
	tm       *neural.TokenModel
	baseline *textmetrics.Baseline
}

// resolveBERTScore loads the contextual model of --bertscore-model (from
// the Hugging Face cache) at the layer --bertscore-layer names, else
// bert_score's default layer for the model, else the last; and the
// baseline of --bertscore-baseline (a file, or "none"), else bert_score's
// published one for the model, layer and --bertscore-lang.
func resolveBERTScore(e *env, model, layerFlag, lang, baselineFlag, backend string, idf bool) (*bertScoreSetup, error) {
	// ref names the model for bert_score's tables: the Hub id, or the
	// model a local export was saved from (config.json's _name_or_path).
	ref, hf := strings.CutPrefix(model, neural.HFScheme+":")
	if !hf {
		st, err := os.Stat(model)
		if err != nil || !st.IsDir() {
			return nil, usagef("--bertscore-model %q: expected hf:ORG/NAME[@REV] (a Hub model fetched by `roleprint setup --model ORG/NAME`) or a folder with model.onnx, tokenizer.json and config.json", model)
		}
		var c struct {
			NameOrPath string `json:"_name_or_path"`
		}
		if b, err := fsx.ReadFile(filepath.Join(model, "config.json"), 1<<20); err == nil {
			_ = json.Unmarshal(b, &c) // a malformed file is reported by the model loader
		}
		ref = c.NameOrPath
	} else if ref == "" {
		return nil, usagef("--bertscore-model hf: names no model (hf:ORG/NAME[@REV])")
	}
	s := &bertScoreSetup{info: bertScoreJSON{Model: model, Contextual: true, IDF: idf, Lang: lang}}
	layer := -1
	switch l := strings.TrimSpace(layerFlag); l {
	case "":
		if d, ok := textmetrics.DefaultLayer(ref); ok {
			layer = d
			s.info.LayerSource = fmt.Sprintf("bert_score's default layer for %s", textmetrics.BERTScoreModelName(ref))
		} else {
			s.info.LayerSource = fmt.Sprintf("the last layer: bert_score publishes no default layer for %s (--bertscore-layer N picks one)", cmp.Or(ref, model))
		}
	case "last":
		s.info.LayerSource = "the last layer (--bertscore-layer last)"
	default:
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			return nil, usagef("--bertscore-layer %q: expected a layer number (0: the embeddings) or last", layerFlag)
		}
		layer = n
		s.info.LayerSource = "--bertscore-layer"
	}
	opts := neural.TokenModelOptions{Layer: layer, Backend: backend}
	var tm *neural.TokenModel
	var err error
	if hf {
		tm, err = neural.NewHFTokenModel(ref, opts)
	} else {
		tm, err = neural.NewTokenModelFromDir(model, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("--bertscore-model: %w", err)
	}
	s.tm = tm
	got := tm.Layer()
	s.info.Layer, s.info.Layers, s.info.Description = &got, tm.Layers(), tm.Describe()
	switch b := strings.TrimSpace(baselineFlag); b {
	case "none":
		s.info.Note = "raw scores only (--bertscore-baseline none)"
	case "":
		if pb, ok := textmetrics.PublishedBaseline(lang, ref, got); ok {
			s.baseline = &pb
		} else {
			s.info.Note = fmt.Sprintf("raw scores only: bert_score publishes no %s baseline for %s at layer %d (give one with --bertscore-baseline FILE.tsv)",
				lang, cmp.Or(textmetrics.BERTScoreModelName(ref), model), got)
		}
	default:
		f, err := fsx.Open(b)
		if err != nil {
			tm.Close()
			return nil, fmt.Errorf("--bertscore-baseline: %w", err)
		}
		rows, err := textmetrics.ReadBaselineTSV(f, b)
		f.Close()
		if err != nil {
			tm.Close()
			return nil, fmt.Errorf("--bertscore-baseline: %w", err)
		}
		row, ok := rows[got]
		if !ok {
			tm.Close()
			return nil, fmt.Errorf("--bertscore-baseline %s: no row for layer %d", b, got)
		}
		s.baseline = &row
	}
	if s.baseline != nil {
		s.info.Rescaled = true
		s.info.Baseline = &baselineJSON{P: s.baseline.P, R: s.baseline.R, F: s.baseline.F, Source: s.baseline.Source}
	}
	how := s.info.Note
	if s.baseline != nil {
		how = "rescaled with " + s.baseline.Source
	}
	e.Logf("metrics: BERTScore with %s; layer %d (%s); %s", tm.Describe(), got, s.info.LayerSource, how)
	return s, nil
}

// close releases the model.
func (s *bertScoreSetup) close() {
	if s != nil && s.tm != nil {
		s.tm.Close()
	}
}

// bertScoreChunk is how many candidates are embedded at a time: token
// states of a large model take kilobytes per token, so a corpus is scored
// in chunks rather than held whole (a variable for tests).
var bertScoreChunk = 256

// score returns BERTScore of each candidate against its references, the
// best over them of each of P, R and F (bert_score's multi-reference
// rule), raw and, with a baseline, rescaled. The idf (with idf) is over
// every reference of the system, as bert_score computes it.
func (s *bertScoreSetup) score(ctx context.Context, e *env, cands []string, refs [][]string, idf bool) (raw, rescaled []textmetrics.PRF, err error) {
	opts := textmetrics.ContextualOptions{}
	if idf {
		var ids [][]int32
		for _, rs := range refs {
			for _, r := range rs {
				ids = append(ids, s.tm.Tokenize(r))
			}
		}
		opts.Weight = textmetrics.IDFWeights(ids)
	}
	raw = make([]textmetrics.PRF, len(cands))
	rep, fin := e.progress("bertscore: token states")
	defer fin()
	for start := 0; start < len(cands); start += bertScoreChunk {
		end := min(start+bertScoreChunk, len(cands))
		texts := append([]string(nil), cands[start:end]...)
		for _, rs := range refs[start:end] {
			texts = append(texts, rs...)
		}
		states, err := s.tm.EncodeTokens(ctx, texts, nil)
		if err != nil {
			return nil, nil, err
		}
		tv := func(i int) textmetrics.TokenVectors {
			return textmetrics.TokenVectors{IDs: states[i].IDs, Special: states[i].Special, Vectors: states[i].Vectors}
		}
		var fc, fr []textmetrics.TokenVectors
		var group []int
		k := end - start
		for i := start; i < end; i++ {
			for range refs[i] {
				fc, fr, group = append(fc, tv(i-start)), append(fr, tv(k)), append(group, i)
				k++
			}
		}
		all, err := textmetrics.ContextualBERTScore(fc, fr, opts)
		if err != nil {
			return nil, nil, err
		}
		seen := map[int]bool{}
		for j, p := range all {
			i := group[j]
			if !seen[i] {
				raw[i], seen[i] = p, true
				continue
			}
			raw[i] = textmetrics.PRF{Precision: max(raw[i].Precision, p.Precision), Recall: max(raw[i].Recall, p.Recall), F: max(raw[i].F, p.F)}
		}
		rep(end, len(cands))
	}
	if s.baseline != nil {
		rescaled = make([]textmetrics.PRF, len(raw))
		for i, p := range raw {
			rescaled[i] = s.baseline.Rescale(p)
		}
	}
	return raw, rescaled, nil
}

// flagsSet returns the names of the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

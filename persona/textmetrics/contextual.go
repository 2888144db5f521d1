package textmetrics

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// TokenVectors are one text's contextual token vectors, as a Hub model
// gives them at one layer (sv/neural's TokenModel).
type TokenVectors struct {
	// IDs are the token ids, special tokens included.
	IDs []int32
	// Special marks the tokenizer's special tokens ([CLS], [SEP], <s>,
	// </s>): weighted 0, as in bert_score, but still matchable.
	Special []bool
	// Vectors are the token states, one per id.
	Vectors [][]float32
}

// ContextualOptions tune ContextualBERTScore.
type ContextualOptions struct {
	// IDF weighs each token id by log((M+1)/(df+1)) over the M references
	// (IDFWeights), bert_score's idf=True; otherwise every token weighs 1.
	// Special tokens weigh 0 either way.
	IDF bool
	// Weight, when set, weighs each token id instead (IDF is then
	// ignored): IDFWeights over every reference of a corpus scored in
	// chunks.
	Weight func(id int32) float64
}

// IDFWeights returns bert_score's idf of each token id over the
// references' token ids: log((M+1)/(df+1)) with df the number of
// references holding the id; an id no reference holds gets log(M+1).
func IDFWeights(refs [][]int32) func(id int32) float64 {
	df := map[int32]int{}
	for _, r := range refs {
		seen := map[int32]bool{}
		for _, id := range r {
			if !seen[id] {
				seen[id] = true
				df[id]++
			}
		}
	}
	m := float64(len(refs))
	return func(id int32) float64 { return math.Log((m + 1) / (float64(df[id]) + 1)) }
}

// ContextualBERTScore computes BERTScore (Zhang et al. 2020) of each
// candidate against its reference from their contextual token vectors, as
// bert_score does: vectors are L2-normalised; precision is the weighted
// mean over candidate tokens of the best cosine with any reference token,
// recall the same from the reference side, F1 = 2PR/(P+R); weights are 1
// or the idf (ContextualOptions.IDF), normalised per sentence, and 0 for
// special tokens, which stay matchable. A pair where either side has no
// token besides the special ones scores 0 (bert_score warns and does the
// same). The maximum runs over the pair's own tokens: bert_score's padded
// batches also offer padding's zero cosine, which changes a score only
// when every cosine of some token is negative.
func ContextualBERTScore(cands, refs []TokenVectors, opts ContextualOptions) ([]PRF, error) {
	if len(cands) != len(refs) {
		return nil, fmt.Errorf("bertscore: %d candidates for %d references", len(cands), len(refs))
	}
	weight := func(int32) float64 { return 1 }
	switch {
	case opts.Weight != nil:
		weight = opts.Weight
	case opts.IDF:
		ids := make([][]int32, len(refs))
		for i, r := range refs {
			ids[i] = r.IDs
		}
		weight = IDFWeights(ids)
	}
	out := make([]PRF, len(cands))
	for i := range cands {
		c, err := unitTokens(cands[i])
		if err != nil {
			return nil, fmt.Errorf("bertscore: candidate %d: %w", i+1, err)
		}
		r, err := unitTokens(refs[i])
		if err != nil {
			return nil, fmt.Errorf("bertscore: reference %d: %w", i+1, err)
		}
		if len(c) > 0 && len(r) > 0 && len(c[0]) != len(r[0]) {
			return nil, fmt.Errorf("bertscore: pair %d: candidate vectors have %d dimensions, reference vectors %d", i+1, len(c[0]), len(r[0]))
		}
		p, okP := greedyTokens(cands[i], c, r, weight)
		rc, okR := greedyTokens(refs[i], r, c, weight)
		if !okP || !okR {
			continue
		}
		f := 0.0
		if p+rc != 0 {
			f = 2 * p * rc / (p + rc)
		}
		out[i] = PRF{Precision: p, Recall: rc, F: f}
	}
	return out, nil
}

// unitTokens returns t's vectors normalised to unit length, checking that
// ids, marks and vectors agree.
func unitTokens(t TokenVectors) ([][]float32, error) {
	if len(t.IDs) != len(t.Vectors) || (t.Special != nil && len(t.Special) != len(t.IDs)) {
		return nil, fmt.Errorf("%d ids, %d special marks, %d vectors", len(t.IDs), len(t.Special), len(t.Vectors))
	}
	out := make([][]float32, len(t.Vectors))
	for i, v := range t.Vectors {
		out[i] = append([]float32(nil), v...)
		normalize(out[i])
	}
	return out, nil
}

// greedyTokens returns the weighted mean over a's tokens of the best
// cosine with any of b's, and false when a has no weighted token or b no
// token besides special ones.
func greedyTokens(a TokenVectors, ua, ub [][]float32, weight func(int32) float64) (float64, bool) {
	var sum, wsum float64
	for i, id := range a.IDs {
		if a.Special != nil && a.Special[i] {
			continue
		}
		w := weight(id)
		best := math.Inf(-1)
		for _, y := range ub {
			if c := float64(dot(ua[i], y)); c > best {
				best = c
			}
		}
		sum += w * best
		wsum += w
	}
	if wsum == 0 || len(ub) == 0 {
		return 0, false
	}
	return sum / wsum, true
}

// Baseline is bert_score's rescaling baseline of one model layer: the
// mean precision, recall and F1 of random sentence pairs.
type Baseline struct {
	P, R, F float64
	// Source names where the values come from (a file, or the published
	// table and its model, language and layer).
	Source string
}

// Rescale maps s onto (x − b)/(1 − b) with b the baseline of each of P,
// R and F, as bert_score's rescale_with_baseline does (F is rescaled with
// F's baseline, not recomputed).
func (b Baseline) Rescale(s PRF) PRF {
	f := func(x, base float64) float64 { return (x - base) / (1 - base) }
	return PRF{Precision: f(s.Precision, b.P), Recall: f(s.Recall, b.R), F: f(s.F, b.F)}
}

// ReadBaselineTSV reads a baseline file of bert_score's form: a header
// LAYER,P,R,F and one comma-separated row per layer. name labels errors.
func ReadBaselineTSV(r io.Reader, name string) (map[int]Baseline, error) {
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	out := map[int]Baseline{}
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		f := strings.Split(s, ",")
		if line == 1 {
			if len(f) != 4 || !strings.EqualFold(strings.TrimSpace(f[0]), "layer") {
				return nil, fmt.Errorf("%s:1: header %q: expected LAYER,P,R,F", name, s)
			}
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: %d fields, expected 4 (LAYER,P,R,F)", name, line, len(f))
		}
		layer, err := strconv.Atoi(strings.TrimSpace(f[0]))
		if err != nil || layer < 0 {
			return nil, fmt.Errorf("%s:%d: layer %q: expected a whole number ≥ 0", name, line, f[0])
		}
		var v [3]float64
		for k := range v {
			if v[k], err = strconv.ParseFloat(strings.TrimSpace(f[k+1]), 64); err != nil || v[k] >= 1 || math.IsNaN(v[k]) {
				return nil, fmt.Errorf("%s:%d: %q: expected a number below 1", name, line, f[k+1])
			}
		}
		if _, dup := out[layer]; dup {
			return nil, fmt.Errorf("%s:%d: layer %d given twice", name, line, layer)
		}
		out[layer] = Baseline{P: v[0], R: v[1], F: v[2], Source: fmt.Sprintf("%s, layer %d", name, layer)}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no baseline rows (expected LAYER,P,R,F lines)", name)
	}
	return out, nil
}

//go:embed bertscore_baselines
var publishedBaselines embed.FS

// PublishedBaseline returns bert_score's published baseline of a model
// (a Hub id such as FacebookAI/roberta-large, or bert_score's name
// roberta-large) at a layer for texts in lang ("en", "zh", …), from the
// copy in bertscore_baselines/ (its README names the source).
func PublishedBaseline(lang, modelID string, layer int) (Baseline, bool) {
	key := BERTScoreModelName(modelID)
	name := path.Join("bertscore_baselines", lang, key+".tsv")
	f, err := publishedBaselines.Open(name)
	if err != nil {
		return Baseline{}, false
	}
	defer f.Close()
	rows, err := ReadBaselineTSV(f, name)
	if err != nil {
		return Baseline{}, false
	}
	b, ok := rows[layer]
	b.Source = fmt.Sprintf("bert_score's published baseline %s/%s.tsv, layer %d", lang, key, layer)
	return b, ok
}

// PublishedBaselineModels lists the models with a published baseline in
// lang, by bert_score's names.
func PublishedBaselineModels(lang string) []string {
	var out []string
	root := path.Join("bertscore_baselines", lang)
	_ = fs.WalkDir(publishedBaselines, root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tsv") {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), ".tsv"))
		}
		return nil
	})
	return out
}

// legacyHubOrgs are the organisations the Hub moved its early models
// without one to (roberta-large is FacebookAI/roberta-large): bert_score
// names those models without the organisation.
var legacyHubOrgs = map[string]bool{"FacebookAI": true, "google-bert": true, "distilbert": true, "albert": true,
	"xlnet": true, "openai-community": true, "google-t5": true}

// BERTScoreModelName maps a Hub id to the name bert_score's tables use:
// the model name alone for the Hub's legacy organisations
// (FacebookAI/roberta-large → roberta-large), the id otherwise; a
// revision (@REV) is dropped.
func BERTScoreModelName(id string) string {
	id, _, _ = strings.Cut(id, "@")
	if org, name, ok := strings.Cut(id, "/"); ok && legacyHubOrgs[org] {
		return name
	}
	return id
}

// DefaultLayer returns the layer bert_score uses for a model (its
// model2layers table: the layer whose scores correlated best with human
// judgements on WMT16, Zhang et al. 2020, appendix), by Hub id or
// bert_score's name.
func DefaultLayer(modelID string) (int, bool) {
	l, ok := bertScoreLayers[BERTScoreModelName(modelID)]
	return l, ok
}

// bertScoreLayers is bert_score's model2layers (bert_score/utils.py,
// github.com/Tiiiger/bert_score at commit 19e7f55), the encoder models of it.
var bertScoreLayers = map[string]int{
	"bert-base-uncased": 9, "bert-large-uncased": 18, "bert-base-cased-finetuned-mrpc": 9,
	"bert-base-multilingual-cased": 9, "bert-base-chinese": 8, "roberta-base": 10, "roberta-large": 17,
	"roberta-large-mnli": 19, "roberta-base-openai-detector": 7, "roberta-large-openai-detector": 15,
	"xlnet-base-cased": 5, "xlnet-large-cased": 7, "xlm-mlm-en-2048": 6, "xlm-mlm-100-1280": 10,
	"allenai/scibert_scivocab_uncased": 8, "allenai/scibert_scivocab_cased": 9, "nfliu/scibert_basevocab_uncased": 9,
	"distilroberta-base": 5, "distilbert-base-uncased": 5, "distilbert-base-uncased-distilled-squad": 4,
	"distilbert-base-multilingual-cased": 5, "albert-base-v1": 10, "albert-large-v1": 17, "albert-xlarge-v1": 16,
	"albert-xxlarge-v1": 8, "albert-base-v2": 9, "albert-large-v2": 14, "albert-xlarge-v2": 13, "albert-xxlarge-v2": 8,
	"xlm-roberta-base": 9, "xlm-roberta-large": 17, "google/electra-small-generator": 9,
	"google/electra-small-discriminator": 11, "google/electra-base-generator": 10,
	"google/electra-base-discriminator": 9, "google/electra-large-generator": 18,
	"google/electra-large-discriminator": 14, "vinai/bertweet-base": 9, "microsoft/deberta-base": 9,
	"microsoft/deberta-base-mnli": 9, "microsoft/deberta-large": 16, "microsoft/deberta-large-mnli": 18,
	"microsoft/deberta-xlarge": 18, "microsoft/deberta-xlarge-mnli": 40, "microsoft/deberta-v2-xlarge": 10,
	"YituTech/conv-bert-base": 10, "YituTech/conv-bert-small": 10, "YituTech/conv-bert-medium-small": 9,
	"microsoft/mpnet-base": 8, "squeezebert/squeezebert-uncased": 9, "squeezebert/squeezebert-mnli": 9,
	"squeezebert/squeezebert-mnli-headless": 9, "SpanBERT/spanbert-base-cased": 8, "SpanBERT/spanbert-large-cased": 17,
	"ProsusAI/finbert": 10, "microsoft/deberta-v2-xlarge-mnli": 17, "microsoft/deberta-v2-xxlarge": 21,
	"microsoft/deberta-v2-xxlarge-mnli": 22, "google/bigbird-roberta-base": 10, "google/bigbird-roberta-large": 14,
	"princeton-nlp/unsup-simcse-bert-base-uncased": 10, "princeton-nlp/unsup-simcse-bert-large-uncased": 18,
	"princeton-nlp/unsup-simcse-roberta-base": 8, "princeton-nlp/unsup-simcse-roberta-large": 13,
	"princeton-nlp/sup-simcse-bert-base-uncased": 10, "princeton-nlp/sup-simcse-bert-large-uncased": 18,
	"princeton-nlp/sup-simcse-roberta-base": 10, "princeton-nlp/sup-simcse-roberta-large": 16,
	"dbmdz/bert-base-turkish-cased": 10, "dbmdz/distilbert-base-turkish-cased": 4,
}

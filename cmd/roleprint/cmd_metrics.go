package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/persona/agree"
	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"

	"github.com/roleprint/roleprint/internal/fsx"
)

func init() {
	register(&command{
		Name:    "metrics",
		Summary: "text metrics (ROUGE-L, METEOR, BERTScore-style F1), judge–human agreement, near-duplicate removal",
		Run:     runMetrics,
	})
}

// textPair is one line of a `metrics --kind text` input file.
type textPair struct {
	ID         string   `json:"id,omitempty"`
	Candidate  string   `json:"candidate"`
	Reference  string   `json:"reference,omitempty"`
	References []string `json:"references,omitempty"`
}

// textMetricsJSON is one system row of `metrics --kind text --json`.
type textMetricsJSON struct {
	System      string  `json:"system"`
	N           int     `json:"n"`
	RougeL      float64 `json:"rouge_l"`
	Meteor      float64 `json:"meteor"`
	BERTScoreF1 float64 `json:"bertscore_f1"`
	// BERTScoreP and BERTScoreR are the mean precision and recall beside
	// F1; the *_rescaled means are given when a baseline rescaled them.
	BERTScoreP          float64  `json:"bertscore_p"`
	BERTScoreR          float64  `json:"bertscore_r"`
	BERTScoreF1Rescaled *float64 `json:"bertscore_f1_rescaled"`
	BERTScorePRescaled  *float64 `json:"bertscore_p_rescaled"`
	BERTScoreRRescaled  *float64 `json:"bertscore_r_rescaled"`
}

// metricsJSON is the --json output of `roleprint metrics`.
type metricsJSON struct {
	Kind string `json:"kind"`
	// text
	Systems       []textMetricsJSON `json:"systems,omitempty"`
	MeteorModules []string          `json:"meteor_modules,omitempty"`
	// MeteorSynonyms says how the synonym stage matched: "stems" (NLTK ≥
	// 3.6, Hugging Face evaluate) or "surface" (classic METEOR); empty
	// when it did not run.
	MeteorSynonyms string `json:"meteor_synonyms,omitempty"`
	WordNet        string `json:"wordnet,omitempty"`
	Encoder        string `json:"encoder,omitempty"`
	RougeStemmed   *bool  `json:"rouge_stemmed,omitempty"`
	// BERTScore says how BERTScore was computed: a Hub model's contextual
	// token states, or static vectors (the offline fallback).
	BERTScore *bertScoreJSON `json:"bertscore,omitempty"`
	// agreement
	Agreement []agreementJSON `json:"agreement,omitempty"`
	// GroupBy is --group-by ("" for item-level agreement); IgnoredColumns
	// the CSV columns no statistic used.
	GroupBy        string   `json:"group_by,omitempty"`
	IgnoredColumns []string `json:"ignored_columns,omitempty"`
	// dedup
	Dedup *dedupJSON `json:"dedup,omitempty"`
}

type agreementJSON struct {
	// File is the input file's name without extension (several files may
	// share dimension names).
	File      string `json:"file"`
	Dimension string `json:"dimension"`
	agree.GroupReport
}

// encoderByName returns textmetrics' HashEncoder for "hash-ngram", else
// the sv encoder registered under name.
func encoderByName(name string) (sv.Encoder, error) {
	if name == "" || name == "hash-ngram" {
		return textmetrics.NewHashEncoder(1024), nil
	}
	enc, err := sv.NewEncoder(name, sv.EncoderOptions{})
	if err != nil {
		return nil, usagef("--encoder %s: %v (hash-ngram or one of: %s)", name, err, strings.Join(sv.EncoderNames(), ", "))
	}
	return enc, nil
}

func runMetrics(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "metrics", "FILES...")
	kind := fs.String("kind", "text", "text (FILES: JSONL {candidate, reference|references}, one system per file), agreement (FILES: CSV with human, judge and optional dimension columns) or dedup (FILES: corpus Parquet; one dialogue per conversation)")
	asJSON := fs.Bool("json", false, "print one JSON object (see docs/persona.md)")
	encName := fs.String("encoder", "hash-ngram", "encoder for BERTScore and dedup: hash-ngram (built in, lexical) or a registered sv encoder")
	stem := fs.Bool("rouge-stem", false, "Porter-stem tokens for ROUGE-L (rouge-score's use_stemmer)")
	noSyn := fs.Bool("no-synonyms", false, "METEOR without the WordNet synonym module")
	surfaceSyn := fs.Bool("meteor-surface-synonyms", false, "METEOR synonyms of the words themselves (classic METEOR, NLTK ≤ 3.5) instead of NLTK ≥ 3.6's (and Hugging Face evaluate's) synonyms of Porter stems")
	idf := fs.Bool("idf", false, "IDF-weight BERTScore tokens over the references")
	bsModel := fs.String("bertscore-model", "", "text: BERTScore with the contextual token states of a Hugging Face Hub model, hf:ORG/NAME[@REV] (fetched once by roleprint setup --model ORG/NAME; e.g. hf:YOU/roberta-large-hidden-states), or a local export folder; without it BERTScore runs over --encoder's static vectors (the offline fallback)")
	bsLayer := fs.String("bertscore-layer", "", "text: the hidden layer of --bertscore-model whose token states are matched (0: embeddings; last); default: bert_score's layer for the model (roberta-large 17), else the last")
	bsLang := fs.String("bertscore-lang", "en", "text: language of the texts, for bert_score's published rescaling baseline")
	bsBaseline := fs.String("bertscore-baseline", "", "text: rescaling baseline file (bert_score's LAYER,P,R,F form), or none; default: bert_score's published baseline of the model, layer and --bertscore-lang when there is one")
	backend := fs.String("backend", "", "compute backend for --bertscore-model and Hub encoders (go, onnx, xla:cuda); default: automatic")
	threshold := fs.Float64("threshold", 0, "dedup: cosine at or above which a dialogue duplicates an earlier one; default: the model's (MiniLM 0.9, bge 0.85, the lexical fallback 0.9)")
	dedupModel := fs.String("dedup-model", "auto", "dedup: speechrole (SpeechRole's MiniLM for English dialogues at 0.9, bge for Chinese at 0.85, by script; from the Hugging Face cache), lexical (hash-ngram vectors, the offline fallback), hf:ORG/NAME (one Hub model), or auto (speechrole when its models are cached, else lexical)")
	method := fs.String("method", "auto", "dedup: exact, lsh or auto")
	outPath := fs.String("out", "", "dedup: write the kept rows to this Parquet file")
	groupBy := fs.String("group-by", "", "agreement: average the scores per value of this CSV column (e.g. system) and compare the means, one point per value, as SpeechRole's Table 3 compares systems (default: compare items)")
	boot := fs.Int("bootstrap", agree.DefaultReplicates, "agreement: bootstrap replicates for the confidence intervals of ρ, τ and pairwise agreement (0: none); items are resampled (within each group with --group-by)")
	conf := fs.Float64("confidence", 0.95, "agreement: coverage of the bootstrap intervals")
	seed := fs.Int64("seed", 1, "agreement: seed of the bootstrap")
	mouts := addMetricsOutputFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no input files")
	}
	out := metricsJSON{Kind: *kind}
	// Flags of one kind given to another would be ignored silently.
	for name, k := range map[string]string{"bertscore-model": "text", "bertscore-layer": "text", "bertscore-lang": "text",
		"bertscore-baseline": "text", "dedup-model": "dedup", "threshold": "dedup", "method": "dedup"} {
		if flagsSet(fs)[name] && *kind != k {
			return usagef("--%s is for --kind %s, not %s", name, k, *kind)
		}
	}
	switch *kind {
	case "text":
		var bs *bertScoreSetup
		if *bsModel != "" {
			if set := flagsSet(fs); set["encoder"] {
				return usagef("--encoder and --bertscore-model: give one (--encoder's static vectors are the offline fallback of --bertscore-model)")
			}
			var err error
			if bs, err = resolveBERTScore(e, *bsModel, *bsLayer, *bsLang, *bsBaseline, *backend, *idf); err != nil {
				return err
			}
			defer bs.close()
		} else if *bsLayer != "" || *bsBaseline != "" {
			return usagef("--bertscore-layer and --bertscore-baseline need --bertscore-model hf:ORG/NAME")
		}
		return metricsText(ctx, e, fs.Args(), *encName, *backend, bs, *noSyn, *surfaceSyn, stem, *idf, mouts, *asJSON, &out)
	case "agreement":
		return metricsAgreement(e, fs.Args(), *groupBy, *boot, *conf, *seed, mouts, *asJSON, &out)
	case "dedup":
		set := flagsSet(fs)
		if set["encoder"] && set["dedup-model"] {
			return usagef("--encoder and --dedup-model: give one")
		}
		model := *dedupModel
		if set["encoder"] {
			model = *encName
		}
		thr := 0.0
		if set["threshold"] {
			thr = *threshold
		}
		return metricsDedup(ctx, e, fs.Args(), model, thr, *method, *outPath, *backend, *asJSON, &out)
	}
	return usagef("unknown --kind %q (text, agreement, dedup)", *kind)
}

// metricsText scores each JSONL file of candidate/reference pairs as one
// system (Rouge-L, METEOR, BERTScore) into out, and writes or prints it.
func metricsText(ctx context.Context, e *env, files []string, encName, backend string, bs *bertScoreSetup, noSyn, surfaceSyn bool, stem *bool, idf bool, mouts *metricsOutputs, asJSON bool, out *metricsJSON) error {
	var enc sv.Encoder
	if bs == nil {
		var err error
		if enc, err = encoderByNameBackend(encName, backend); err != nil {
			return err
		}
		if c, ok := enc.(sv.Closer); ok {
			defer c.Close()
		}
		out.Encoder = enc.Name()
		out.BERTScore = &bertScoreJSON{Model: enc.Name(), OfflineFallback: true, IDF: idf,
			Note: "static vectors (offline fallback): each distinct word embedded alone by " + enc.Name() + ", not BERTScore's contextual token states; --bertscore-model hf:ORG/NAME runs BERTScore proper"}
	} else {
		info := bs.info
		out.BERTScore = &info
	}
	mo := textmetrics.DefaultMeteorOptions()
	if noSyn {
		mo.WordNet = nil
	}
	if mo.WordNet == nil && !noSyn {
		e.Logf("metrics: WordNet not installed (apt-get install wordnet-base): METEOR runs without synonyms")
	}
	mo.SurfaceSynonyms = surfaceSyn
	out.MeteorModules = mo.ActiveModules()
	if mo.WordNet != nil {
		out.WordNet = mo.WordNet.Dir
		out.MeteorSynonyms = map[bool]string{false: "stems", true: "surface"}[mo.SurfaceSynonyms]
	}
	out.RougeStemmed = stem
	ro := textmetrics.RougeOptions{Stem: *stem}
	for _, p := range files {
		pairs, err := readJSONL[textPair](p)
		if err != nil {
			return err
		}
		row := textMetricsJSON{System: systemName(p), N: len(pairs)}
		var cands, refs []string
		var allRefs [][]string
		for i, tp := range pairs {
			rs := tp.References
			if tp.Reference != "" {
				rs = append([]string{tp.Reference}, rs...)
			}
			if len(rs) == 0 {
				return fmt.Errorf("%s: record %d has no reference (expected \"reference\" or \"references\")", p, i+1)
			}
			row.RougeL += textmetrics.RougeLMulti(tp.Candidate, rs, ro).F
			row.Meteor += textmetrics.MeteorMulti(tp.Candidate, rs, mo).Score
			cands, refs, allRefs = append(cands, tp.Candidate), append(refs, rs[0]), append(allRefs, rs)
		}
		var raw, rescaled []textmetrics.PRF
		if bs != nil {
			raw, rescaled, err = bs.score(ctx, e, cands, allRefs, idf)
		} else {
			raw, err = textmetrics.BERTScore(ctx, enc, cands, refs, textmetrics.BERTScoreOptions{IDF: idf})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		n := float64(len(pairs))
		mean := func(s []textmetrics.PRF) (p, r, f float64) {
			for _, x := range s {
				p, r, f = p+x.Precision/n, r+x.Recall/n, f+x.F/n
			}
			return
		}
		row.BERTScoreP, row.BERTScoreR, row.BERTScoreF1 = mean(raw)
		if rescaled != nil {
			p, r, f := mean(rescaled)
			row.BERTScorePRescaled, row.BERTScoreRRescaled, row.BERTScoreF1Rescaled = &p, &r, &f
		}
		row.RougeL, row.Meteor = row.RougeL/n, row.Meteor/n
		out.Systems = append(out.Systems, row)
	}
	if err := mouts.write(e, out, files); err != nil {
		return err
	}
	if asJSON {
		return e.JSON(out)
	}
	w := e.Stdout()
	syn := ""
	if out.MeteorSynonyms != "" {
		syn = " (synonyms of " + map[string]string{"stems": "stems, as NLTK ≥ 3.6", "surface": "words, classic METEOR"}[out.MeteorSynonyms] + ")"
	}
	fmt.Fprintf(w, "METEOR modules: %s%s; BERTScore: %s (scores ×100, as VoxRole Table 2)\n", strings.Join(out.MeteorModules, "+"), syn, bertScoreLine(out.BERTScore))
	resc := out.BERTScore.Rescaled
	fmt.Fprintf(w, "%-24s%10s%10s%14s", "System", "Rouge-L", "Meteor", "BertScore F1")
	if resc {
		fmt.Fprintf(w, "%16s", "F1 rescaled")
	}
	fmt.Fprintf(w, "%6s\n", "N")
	for _, r := range out.Systems {
		fmt.Fprintf(w, "%-24s%10.2f%10.2f%14.2f", r.System, 100*r.RougeL, 100*r.Meteor, 100*r.BERTScoreF1)
		if resc {
			fmt.Fprintf(w, "%16.2f", 100**r.BERTScoreF1Rescaled)
		}
		fmt.Fprintf(w, "%6d\n", r.N)
	}
	return nil
}

// bertScoreLine describes the BERTScore computation for the text table.
func bertScoreLine(b *bertScoreJSON) string {
	if !b.Contextual {
		return "static vectors of " + b.Model + " (offline fallback, not contextual BERTScore)"
	}
	s := fmt.Sprintf("%s, layer %d of %d (%s)", b.Model, *b.Layer, b.Layers, b.LayerSource)
	if b.IDF {
		s += ", idf"
	}
	if b.Baseline != nil {
		return s + ", rescaled with " + b.Baseline.Source
	}
	return s + "; " + b.Note
}

// metricsAgreement measures human–judge agreement in each CSV file per
// dimension into out, and writes or prints it.
func metricsAgreement(e *env, files []string, groupBy string, boot int, conf float64, seed int64, mouts *metricsOutputs, asJSON bool, out *metricsJSON) error {
	out.GroupBy = strings.ToLower(strings.TrimSpace(groupBy))
	bs := agree.Bootstrap{Replicates: boot, Confidence: conf, Seed: seed}
	ignored := map[string]bool{}
	for _, p := range files {
		rows, extra, err := readAgreementCSV(p, out.GroupBy)
		if err != nil {
			return err
		}
		for _, c := range extra {
			ignored[c] = true
		}
		var dims []string
		for d := range rows {
			dims = append(dims, d)
		}
		sort.Strings(dims)
		for _, d := range dims {
			r := rows[d]
			rep, err := agree.CompareGroups(r.human, r.judge, r.groups, bs)
			if err != nil {
				return fmt.Errorf("%s: dimension %q: %w", p, d, err)
			}
			out.Agreement = append(out.Agreement, agreementJSON{File: systemName(p), Dimension: d, GroupReport: rep})
		}
	}
	out.IgnoredColumns = sortedKeys(ignored)
	if len(out.IgnoredColumns) > 0 {
		if out.GroupBy == "" {
			e.Logf("metrics: column(s) %s not used: agreement is over items (--group-by COLUMN compares per-group means, e.g. per system)", strings.Join(out.IgnoredColumns, ", "))
		} else {
			e.Logf("metrics: column(s) %s not used", strings.Join(out.IgnoredColumns, ", "))
		}
	}
	if err := mouts.write(e, out, files); err != nil {
		return err
	}
	if asJSON {
		return e.JSON(out)
	}
	w := e.Stdout()
	unit := "items"
	if out.GroupBy != "" {
		unit = "means per " + out.GroupBy
	}
	fmt.Fprintf(w, "Agreement over %s; %.0f%% bootstrap intervals from %d replicates (seed %d)\n", unit, 100*bs.Confidence, bs.Replicates, bs.Seed)
	fmt.Fprintf(w, "%-16s%-16s%6s%7s%10s%18s%10s%18s%12s%18s%10s\n", "File", "Dimension", "N", "Groups", "Spearman", "", "Kendall", "", "Agreement", "", "Pearson")
	for _, a := range out.Agreement {
		fmt.Fprintf(w, "%-16s%-16s%6d%7d%10.3f%18s%10.3f%18s%12.3f%18s%10.3f\n", a.File, a.Dimension, a.N, a.Groups,
			a.Spearman, ciText(a.SpearmanCI), a.Kendall, ciText(a.KendallCI), a.Pairwise, ciText(a.PairwiseCI), a.Pearson)
	}
	return nil
}

// agreementRows are one dimension's scores (and groups, with --group-by).
type agreementRows struct {
	human, judge []float64
	groups       []string
}

// readAgreementCSV reads a CSV with a header naming columns "human" and
// "judge" (and optionally "dimension", and the groupBy column when
// given); it returns, per dimension ("all" when there is no dimension
// column), the human and judge scores and the groups, and the names of
// the columns it did not use.
func readAgreementCSV(path, groupBy string) (map[string]*agreementRows, []string, error) {
	f, err := fsx.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	hi, okH := col["human"]
	ji, okJ := col["judge"]
	if !okH || !okJ {
		return nil, nil, fmt.Errorf("%s:1: header %v: expected columns human and judge (and optionally dimension)", path, header)
	}
	di, okD := col["dimension"]
	gi, okG := col[groupBy]
	if groupBy != "" && !okG {
		return nil, nil, fmt.Errorf("%s:1: header %v: no column %q for --group-by", path, header, groupBy)
	}
	var unused []string
	for _, h := range header {
		k := strings.ToLower(strings.TrimSpace(h))
		if k != "human" && k != "judge" && k != "dimension" && (groupBy == "" || k != groupBy) {
			unused = append(unused, k)
		}
	}
	need := max(hi, ji)
	if okD {
		need = max(need, di)
	}
	if okG {
		need = max(need, gi)
	}
	out := map[string]*agreementRows{}
	line := 1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line++
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if len(rec) <= need {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, expected %d", path, line, len(rec), len(header))
		}
		h, err1 := strconv.ParseFloat(strings.TrimSpace(rec[hi]), 64)
		j, err2 := strconv.ParseFloat(strings.TrimSpace(rec[ji]), 64)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("%s:%d: human %q and judge %q must be numbers", path, line, rec[hi], rec[ji])
		}
		d := "all"
		if okD {
			d = strings.TrimSpace(rec[di])
		}
		v := out[d]
		if v == nil {
			v = &agreementRows{}
			out[d] = v
		}
		v.human, v.judge = append(v.human, h), append(v.judge, j)
		if okG {
			g := strings.TrimSpace(rec[gi])
			if g == "" {
				return nil, nil, fmt.Errorf("%s:%d: empty %s (--group-by)", path, line, groupBy)
			}
			v.groups = append(v.groups, g)
		}
	}
	return out, unused, nil
}

// ciText renders an interval "[lo, hi]", "" when undefined.
func ciText(iv stats.Interval) string {
	if !iv.Defined() {
		return ""
	}
	return fmt.Sprintf("[%.3f, %.3f]", iv[0], iv[1])
}

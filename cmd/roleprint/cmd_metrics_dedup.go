package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/neural"
)

type dedupJSON struct {
	Dialogues int `json:"dialogues"`
	Kept      int `json:"kept"`
	Dropped   int `json:"dropped"`
	// Threshold is the duplicate cosine when every group used the same.
	Threshold *float64 `json:"threshold"`
	Method    string   `json:"method"`
	// Models is "speechrole", "lexical", or the one encoder's name;
	// OfflineFallback marks the lexical dedup.
	Models          string  `json:"models"`
	OfflineFallback bool    `json:"offline_fallback"`
	Comparisons     int64   `json:"comparisons"`
	Seconds         float64 `json:"seconds"`
	Out             string  `json:"out"`
	// Groups are the dialogues deduplicated together: one per language
	// (by script) with SpeechRole's models, else one.
	Groups []dedupGroupJSON `json:"groups"`
	// Duplicates name each dropped dialogue and the kept one it copies.
	Duplicates []dedupDupJSON `json:"duplicates"`
	Note       string         `json:"note"`
}

type dedupGroupJSON struct {
	Language        string  `json:"language"`
	Encoder         string  `json:"encoder"`
	OfflineFallback bool    `json:"offline_fallback"`
	Threshold       float64 `json:"threshold"`
	Dialogues       int     `json:"dialogues"`
	Kept            int     `json:"kept"`
	Dropped         int     `json:"dropped"`
}

type dedupDupJSON struct {
	Conversation string  `json:"conversation"`
	Of           string  `json:"of"`
	Cosine       float64 `json:"cosine"`
}

// dedupGroup is one set of dialogues embedded by one encoder.
type dedupGroup struct {
	lang      string
	encoder   string
	threshold float64
	items     []int
}

// planDedup resolves --dedup-model into the groups to deduplicate: for
// SpeechRole's models one group per language present (by script), else one
// group with one encoder. "auto" takes SpeechRole's models when every one
// the dialogues need is in the Hugging Face cache, else the lexical
// fallback (saying so on stderr). threshold > 0 overrides every group's.
func planDedup(e *env, model string, threshold float64, texts []string) (groups []*dedupGroup, label, note string, err error) {
	switch model {
	case "auto", "speechrole":
		langs := map[string][]int{}
		for i, t := range texts {
			l := textmetrics.ScriptLanguage(t)
			langs[l] = append(langs[l], i)
		}
		var missing []string
		for _, m := range textmetrics.SpeechRoleDedupModels {
			if len(langs[m.Language]) == 0 {
				continue
			}
			thr := m.Threshold
			if threshold > 0 {
				thr = threshold
			}
			groups = append(groups, &dedupGroup{lang: m.Language, encoder: neural.HFScheme + ":" + m.Model, threshold: thr, items: langs[m.Language]})
			if _, err := hub.Default().Local(hub.Ref{ID: m.Model, Revision: "main"}); err != nil {
				if !errors.Is(err, hub.ErrNotCached) {
					return nil, "", "", err
				}
				missing = append(missing, m.Model)
			}
		}
		if len(missing) == 0 {
			return groups, "speechrole", "", nil
		}
		var cmds []string
		for _, m := range missing {
			cmds = append(cmds, "`"+hub.SetupCommand(m)+"`")
		}
		if model == "speechrole" {
			return nil, "", "", fmt.Errorf("--dedup-model speechrole: %s not in the Hugging Face cache; fetch once with %s", strings.Join(missing, ", "), strings.Join(cmds, " and "))
		}
		note = fmt.Sprintf("SpeechRole's dedup model(s) %s not in the Hugging Face cache: lexical dedup (offline fallback); fetch them with %s", strings.Join(missing, ", "), strings.Join(cmds, " and "))
		e.Logf("metrics: %s", note)
		model = "lexical"
	}
	if model == "lexical" {
		model = "hash-ngram"
	}
	thr := threshold
	if thr <= 0 {
		thr = textmetrics.LexicalDedupThreshold
	}
	all := make([]int, len(texts))
	for i := range all {
		all[i] = i
	}
	label = model
	if model == "hash-ngram" {
		label = "lexical"
	}
	return []*dedupGroup{{encoder: model, threshold: thr, items: all}}, label, note, nil
}

// metricsDedup drops near-duplicate dialogues (one per conversation) of
// the corpus files, writes the kept rows to outPath when set, and prints
// what it did.
func metricsDedup(ctx context.Context, e *env, files []string, model string, threshold float64, method, outPath, backend string, asJSON bool, out *metricsJSON) error {
	utts, err := data.ReadUtterances(files...)
	if err != nil {
		return err
	}
	type conv struct {
		id   string
		rows []data.Utterance
		text strings.Builder
	}
	var order []string
	convs := map[string]*conv{}
	for _, u := range utts {
		k := u.Source + "\x00" + u.ConversationID
		c := convs[k]
		if c == nil {
			c = &conv{id: u.ConversationID}
			if len(files) > 1 || u.Source != "" {
				c.id = u.Source + "/" + u.ConversationID
			}
			convs[k] = c
			order = append(order, k)
		}
		c.rows = append(c.rows, u)
		c.text.WriteString(u.Speaker + ": " + u.Text + "\n")
	}
	texts := make([]string, len(order))
	for i, k := range order {
		texts[i] = convs[k].text.String()
	}
	groups, label, note, err := planDedup(e, model, threshold, texts)
	if err != nil {
		return err
	}
	encs := map[string]sv.Encoder{}
	for _, g := range groups {
		if encs[g.encoder] != nil {
			continue
		}
		enc, err := encoderByNameBackend(g.encoder, backend)
		if err != nil {
			return err
		}
		if c, ok := enc.(sv.Closer); ok {
			defer c.Close()
		}
		encs[g.encoder] = enc
	}
	start := time.Now()
	d := &dedupJSON{Dialogues: len(order), Models: label, OfflineFallback: label == "lexical", Out: outPath, Note: note,
		Groups: []dedupGroupJSON{}, Duplicates: []dedupDupJSON{}}
	dropped := make([]bool, len(order))
	for _, g := range groups {
		gt := make([]string, len(g.items))
		for i, j := range g.items {
			gt[i] = texts[j]
		}
		rep, fin := e.progress("embed dialogues (" + g.encoder + ")")
		vecs, err := encs[g.encoder].Encode(ctx, gt, rep)
		fin()
		if err != nil {
			return err
		}
		res, err := textmetrics.Dedup(ctx, vecs, textmetrics.DedupOptions{Threshold: g.threshold, Method: method})
		if err != nil {
			return err
		}
		d.Method, d.Comparisons = res.Method, d.Comparisons+res.Comparisons
		for _, x := range res.Duplicates {
			i, of := g.items[x.Index], g.items[x.Of]
			dropped[i] = true
			d.Duplicates = append(d.Duplicates, dedupDupJSON{Conversation: convs[order[i]].id, Of: convs[order[of]].id, Cosine: x.Cosine})
		}
		d.Groups = append(d.Groups, dedupGroupJSON{Language: g.lang, Encoder: g.encoder, OfflineFallback: g.encoder == "hash-ngram",
			Threshold: g.threshold, Dialogues: len(g.items), Kept: len(res.Keep), Dropped: len(res.Duplicates)})
		if d.Threshold == nil || *d.Threshold == g.threshold {
			thr := g.threshold
			d.Threshold = &thr
		} else {
			d.Threshold = nil
		}
	}
	d.Seconds = time.Since(start).Seconds()
	var kept []data.Utterance
	for i, k := range order {
		if dropped[i] {
			d.Dropped++
			continue
		}
		d.Kept++
		kept = append(kept, convs[k].rows...)
	}
	if outPath != "" {
		if err := data.WriteUtterances(outPath, kept); err != nil {
			return err
		}
	}
	out.Dedup = d
	if len(groups) == 1 {
		out.Encoder = groups[0].encoder
	}
	if asJSON {
		return e.JSON(out)
	}
	w := e.Stdout()
	what := "lexical dedup (hash-ngram vectors, offline fallback)"
	if label == "speechrole" {
		what = "SpeechRole's dedup models"
	} else if label != "lexical" {
		what = label
	}
	fmt.Fprintf(w, "%d dialogues: %d kept, %d near-duplicates under %s (%s search, %d comparisons) in %.2fs\n",
		d.Dialogues, d.Kept, d.Dropped, what, d.Method, d.Comparisons, d.Seconds)
	for _, g := range d.Groups {
		lang := g.Language
		if lang == "" {
			lang = "all"
		}
		fmt.Fprintf(w, "  %-4s %-45s cosine ≥ %.2f: %d dialogues, %d kept, %d dropped\n", lang, g.Encoder, g.Threshold, g.Dialogues, g.Kept, g.Dropped)
	}
	return nil
}

// encoderByNameBackend is encoderByName on a compute backend.
func encoderByNameBackend(name, backend string) (sv.Encoder, error) {
	if name == "" || name == "hash-ngram" || backend == "" {
		return encoderByName(name)
	}
	enc, err := sv.NewEncoder(name, sv.EncoderOptions{Backend: backend})
	if err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	return enc, nil
}

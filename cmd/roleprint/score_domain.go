package main

import (
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/sv/roleplay"
	"github.com/roleprint/roleprint/sv/verifier"
)

// scoreDomainChunk is the number of utterances of one speaker or role
// checked against a bundle's domain at a time.
const scoreDomainChunk = 20

// scoreDomain says how much of the scored text lies outside a verifier
// bundle's training domain: per side (real, generated), the chunks of
// scoreDomainChunk utterances of one speaker or agent role that do.
type scoreDomain struct {
	Side        string `json:"side"`
	Chunks      int    `json:"chunks"`
	OutOfDomain int    `json:"out_of_domain"`
	InDomain    bool   `json:"in_domain"`
}

// scoreReport is `roleprint score --json` with a verifier bundle: the
// report, with in_domain (null without a bundle or when it records no
// domain) and the per-side checks.
type scoreReport struct {
	*roleplay.Report
	InDomain *bool         `json:"in_domain"`
	Domain   []scoreDomain `json:"domain"`
	// Calibration says, when the similarity is a verifier bundle's
	// P(same), how the scores were computed (scoring: adapted or
	// as_saved), the calibration read them through (calibration) and what
	// it was fitted on (calibration_source, calibration_scoring,
	// calibration_note); null
	// otherwise (an encoder's or a bundle's cosine, or an adapted fused
	// score no calibration fits).
	Calibration *verifier.ModeCalibration `json:"calibration"`
}

// checkScoreDomain checks the real and generated lines against the
// bundle in dir (nothing when dir is "" or the bundle records no domain)
// and warns on stderr about a side mostly outside it.
func checkScoreDomain(e *env, dir string, real, gen []data.Utterance) (*bool, []scoreDomain) {
	if dir == "" {
		return nil, []scoreDomain{}
	}
	d, err := verifier.ReadDomain(dir)
	if err != nil || d == nil {
		e.Logf("score: note: %s records no training domain, so nothing says whether the scored text is like its training text", dir)
		return nil, []scoreDomain{}
	}
	in := true
	var out []scoreDomain
	for _, side := range []struct {
		name string
		utts []data.Utterance
		keep func(*data.Utterance) bool
	}{
		{"real", real, func(u *data.Utterance) bool { return u.AgentModel == "" }},
		{"generated", gen, genimport.IsAgentLine},
	} {
		groups := map[string][]string{}
		var keys []string
		for i := range side.utts {
			u := &side.utts[i]
			if !side.keep(u) {
				continue
			}
			k := u.AgentModel + "\x00" + u.Source + "\x00" + u.Speaker
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], u.Text)
		}
		sd := scoreDomain{Side: side.name}
		for _, k := range keys {
			texts := groups[k]
			for lo := 0; lo < len(texts); lo += scoreDomainChunk {
				sd.Chunks++
				if !d.Check(texts[lo:min(lo+scoreDomainChunk, len(texts))]).InDomain {
					sd.OutOfDomain++
				}
			}
		}
		sd.InDomain = 2*sd.OutOfDomain <= sd.Chunks
		if !sd.InDomain {
			in = false
			e.Logf("score: warning: %d of the %d chunks of %d %s lines are outside the text the verifier %s was trained on (%s): its similarities there were calibrated on other text",
				sd.OutOfDomain, sd.Chunks, scoreDomainChunk, side.name, dir, strings.Join(d.CorpusNames(), ", "))
		}
		out = append(out, sd)
	}
	return &in, out
}

package textmetrics

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Matching modules of METEOR, applied in this order.
const (
	ModuleExact   = "exact"
	ModuleStem    = "stem"
	ModuleSynonym = "synonym"
)

// MeteorOptions parametrise METEOR. DefaultMeteorOptions gives NLTK's (and
// Hugging Face evaluate's) defaults, including how NLTK ≥ 3.6 runs the
// synonym stage (see SurfaceSynonyms).
type MeteorOptions struct {
	// Alpha weighs precision and recall in Fmean = PR/(αP + (1−α)R).
	// Default 0.9 (Banerjee & Lavie 2005: Fmean = 10PR/(R + 9P)).
	Alpha float64
	// Beta and Gamma shape the fragmentation penalty
	// γ·(chunks/matches)^β. Defaults 3 and 0.5.
	Beta, Gamma float64
	// Modules lists the matching stages to run, in order; default exact,
	// stem, synonym. The synonym stage is skipped (and left out of
	// Score.Modules) when WordNet is nil.
	Modules []string
	// WordNet provides synonyms; nil runs without the synonym stage. Load
	// it with LoadWordNet.
	WordNet *WordNet
	// SurfaceSynonyms makes the synonym stage compare the words
	// themselves: the reference word must be a WordNet synonym of the
	// hypothesis word (classic METEOR, and NLTK up to 3.5, whose
	// documentation printed 0.7398 for its example). The default (false)
	// is what NLTK ≥ 3.6 and hence Hugging Face evaluate compute: the
	// stem stage leaves the Porter stems of the unmatched words behind,
	// and the synonym stage looks up the synonyms of the hypothesis
	// word's stem and compares them with the reference word's stem, so
	// pairs such as always/forever (stems "alway", "forev") or
	// car/automobile ("automobil") do not match (NLTK 3.8 prints 0.6944
	// for the same example).
	SurfaceSynonyms bool
	// Tokenize splits a sentence into tokens; default Tokens.
	Tokenize func(string) []string
}

// DefaultMeteorOptions returns α = 0.9, β = 3, γ = 0.5, all three
// modules, and WordNet when it is installed (see FindWordNet).
func DefaultMeteorOptions() MeteorOptions {
	o := MeteorOptions{Alpha: 0.9, Beta: 3, Gamma: 0.5, Modules: []string{ModuleExact, ModuleStem, ModuleSynonym}}
	if wn, err := LoadWordNet(""); err == nil {
		o.WordNet = wn
	}
	return o
}

// MeteorScore is one METEOR result with its parts.
type MeteorScore struct {
	// Score is Fmean·(1 − Penalty).
	Score float64 `json:"score"`
	// Precision and Recall are matches over hypothesis and reference
	// length; Fmean their weighted harmonic mean.
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	Fmean     float64 `json:"fmean"`
	// Penalty is γ·(Chunks/Matches)^β.
	Penalty float64 `json:"penalty"`
	// Matches is the number of aligned word pairs and Chunks the number
	// of runs of them adjacent and in order in both sentences.
	Matches int `json:"matches"`
	Chunks  int `json:"chunks"`
	// ByModule counts the matches each module made.
	ByModule map[string]int `json:"by_module"`
	// Modules are the modules that ran.
	Modules []string `json:"modules"`
}

// Meteor scores hypothesis against one reference.
//
// The alignment follows NLTK's meteor_score: each module in turn matches
// still-unmatched words, scanning hypothesis words from the last to the
// first and pairing each with the last unmatched reference word it
// matches (exact: equal lower-cased tokens; stem: equal Porter stems;
// synonym: the reference word's stem is among the WordNet synonyms of
// the hypothesis word's stem, or with SurfaceSynonyms the word among the
// word's synonyms). Chunks are counted over the matches sorted by
// hypothesis position.
func Meteor(hypothesis, reference string, opts MeteorOptions) MeteorScore {
	opts = opts.withDefaults()
	return meteorTokens(opts.Tokenize(hypothesis), opts.Tokenize(reference), opts)
}

// MeteorMulti scores hypothesis against several references and keeps the
// best (NLTK's rule).
func MeteorMulti(hypothesis string, references []string, opts MeteorOptions) MeteorScore {
	opts = opts.withDefaults()
	h := opts.Tokenize(hypothesis)
	var best MeteorScore
	for i, r := range references {
		if s := meteorTokens(h, opts.Tokenize(r), opts); i == 0 || s.Score > best.Score {
			best = s
		}
	}
	return best
}

func (o MeteorOptions) withDefaults() MeteorOptions {
	if o.Alpha == 0 && o.Beta == 0 && o.Gamma == 0 {
		o.Alpha, o.Beta, o.Gamma = 0.9, 3, 0.5
	}
	if o.Modules == nil {
		o.Modules = []string{ModuleExact, ModuleStem, ModuleSynonym}
	}
	if o.Tokenize == nil {
		o.Tokenize = Tokens
	}
	return o
}

// ActiveModules returns the modules that will actually run with these
// options (synonym only with WordNet).
func (o MeteorOptions) ActiveModules() []string {
	o = o.withDefaults()
	var out []string
	for _, m := range o.Modules {
		if m == ModuleSynonym && o.WordNet == nil {
			continue
		}
		out = append(out, m)
	}
	return out
}

type tok struct {
	pos  int
	word string
}

func meteorTokens(hyp, ref []string, o MeteorOptions) MeteorScore {
	s := MeteorScore{ByModule: map[string]int{}, Modules: o.ActiveModules()}
	if len(hyp) == 0 || len(ref) == 0 {
		return s
	}
	h := make([]tok, len(hyp))
	for i, w := range hyp {
		h[i] = tok{i, strings.ToLower(w)}
	}
	r := make([]tok, len(ref))
	for i, w := range ref {
		r[i] = tok{i, strings.ToLower(w)}
	}
	var matches [][2]int
	stemmed := false // NLTK replaces the words left over by their stems after the stem stage
	for _, m := range s.Modules {
		var eq func(hw, rw string) bool
		switch m {
		case ModuleExact:
			eq = func(a, b string) bool { return a == b }
		case ModuleStem:
			eq = func(a, b string) bool { return Stem(a) == Stem(b) }
		case ModuleSynonym:
			syn := map[string]map[string]bool{}
			useStems := stemmed && !o.SurfaceSynonyms
			eq = func(a, b string) bool {
				if useStems {
					a, b = Stem(a), Stem(b)
				}
				set, ok := syn[a]
				if !ok {
					set = o.WordNet.Synonyms(a)
					syn[a] = set
				}
				return set[b]
			}
		default:
			panic(fmt.Sprintf("textmetrics: unknown METEOR module %q", m))
		}
		var got [][2]int
		got, h, r = matchStage(h, r, eq)
		if m == ModuleStem {
			stemmed = true
		}
		s.ByModule[m] = len(got)
		matches = append(matches, got...)
	}
	s.Matches = len(matches)
	if s.Matches == 0 {
		return s
	}
	sort.Slice(matches, func(i, j int) bool { return matches[i][0] < matches[j][0] })
	s.Chunks = 1
	for i := 1; i < len(matches); i++ {
		if matches[i][0] != matches[i-1][0]+1 || matches[i][1] != matches[i-1][1]+1 {
			s.Chunks++
		}
	}
	s.Precision = float64(s.Matches) / float64(len(hyp))
	s.Recall = float64(s.Matches) / float64(len(ref))
	s.Fmean = s.Precision * s.Recall / (o.Alpha*s.Precision + (1-o.Alpha)*s.Recall)
	s.Penalty = o.Gamma * math.Pow(float64(s.Chunks)/float64(s.Matches), o.Beta)
	s.Score = s.Fmean * (1 - s.Penalty)
	return s
}

// matchStage pairs hypothesis and reference tokens as NLTK's
// _match_enums does: hypothesis from the end, each with the last
// matching reference token. It returns the pairs and what is left.
func matchStage(h, r []tok, eq func(hw, rw string) bool) ([][2]int, []tok, []tok) {
	var out [][2]int
	h = append([]tok(nil), h...)
	r = append([]tok(nil), r...)
	for i := len(h) - 1; i >= 0; i-- {
		for j := len(r) - 1; j >= 0; j-- {
			if eq(h[i].word, r[j].word) {
				out = append(out, [2]int{h[i].pos, r[j].pos})
				h = append(h[:i], h[i+1:]...)
				r = append(r[:j], r[j+1:]...)
				break
			}
		}
	}
	return out, h, r
}

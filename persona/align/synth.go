package align

import (
	"math/rand/v2"

	"github.com/roleprint/roleprint/persona/textmetrics"
)

// PerturbOptions describe how Synthesize corrupts a script into a
// transcript. Rates are probabilities.
type PerturbOptions struct {
	// DeleteLine drops a whole line from the transcript.
	DeleteLine float64 `json:"delete_line"`
	// InsertLine adds an unscripted utterance after a line.
	InsertLine float64 `json:"insert_line"`
	// ParaphraseLine rewrites about 40 % of a line's words.
	ParaphraseLine float64 `json:"paraphrase_line"`
	// DeleteWord, InsertWord and SubstituteWord corrupt single words
	// (a filler inserted, a word replaced by another).
	DeleteWord     float64 `json:"delete_word"`
	InsertWord     float64 `json:"insert_word"`
	SubstituteWord float64 `json:"substitute_word"`
	// Seed makes the corruption reproducible.
	Seed uint64 `json:"seed"`
}

// DefaultPerturbOptions is the perturbed test set of the alignment tests:
// 3 % of lines deleted, 3 % unscripted lines inserted, 5 % of lines
// paraphrased, and 4 % word deletions, 4 % filler insertions and 6 %
// substitutions.
func DefaultPerturbOptions() PerturbOptions {
	return PerturbOptions{DeleteLine: 0.03, InsertLine: 0.03, ParaphraseLine: 0.05, DeleteWord: 0.04, InsertWord: 0.04, SubstituteWord: 0.06, Seed: 1}
}

// Truth is where a script line's own words really are in a synthesized
// transcript: the first and last transcript word that came from one of
// the line's words (fillers and substitutes count; -1 when the line was
// deleted).
type Truth struct {
	FirstWord int     `json:"first_word"`
	LastWord  int     `json:"last_word"`
	Start     float64 `json:"start"`
	End       float64 `json:"end"`
	// Paraphrased marks lines that were rewritten.
	Paraphrased bool `json:"paraphrased"`
}

var fillers = []string{"uh", "um", "like", "you", "know", "so", "well", "oh", "yeah", "hmm", "I", "mean", "okay"}

// Synthesize turns script lines into a timed transcript with the
// corruptions of opts, as an ASR transcript of a performance of the
// script would differ from it: words last 0.2–0.45 s with 0.02–0.1 s
// between them, lines are separated by 0.3–1.5 s. It returns the
// transcript words and, per line, where its words really are.
func Synthesize(lines []Line, opts PerturbOptions) ([]Word, []Truth) {
	rng := rand.New(rand.NewPCG(opts.Seed, 99))
	var vocab []string
	for _, l := range lines {
		vocab = append(vocab, textmetrics.Words(l.Text)...)
	}
	if len(vocab) == 0 {
		vocab = fillers
	}
	var words []Word
	t := 0.0
	emit := func(w string) int {
		d := 0.2 + 0.25*rng.Float64()
		words = append(words, Word{Text: w, Start: t, End: t + d})
		t += d + 0.02 + 0.08*rng.Float64()
		return len(words) - 1
	}
	truth := make([]Truth, len(lines))
	for i, l := range lines {
		truth[i] = Truth{FirstWord: -1, LastWord: -1}
		t += 0.3 + 1.2*rng.Float64()
		if rng.Float64() < opts.DeleteLine {
			continue
		}
		para := rng.Float64() < opts.ParaphraseLine
		truth[i].Paraphrased = para
		for _, w := range textmetrics.Words(l.Text) {
			if rng.Float64() < opts.InsertWord {
				emit(fillers[rng.IntN(len(fillers))])
			}
			if !para && rng.Float64() < opts.DeleteWord {
				continue
			}
			out := w
			if para && rng.Float64() < 0.4 || !para && rng.Float64() < opts.SubstituteWord {
				out = vocab[rng.IntN(len(vocab))]
			}
			k := emit(out)
			if truth[i].FirstWord < 0 {
				truth[i].FirstWord = k
			}
			truth[i].LastWord = k
		}
		if truth[i].FirstWord >= 0 {
			truth[i].Start, truth[i].End = words[truth[i].FirstWord].Start, words[truth[i].LastWord].End
		}
		if rng.Float64() < opts.InsertLine {
			t += 0.3 + 0.7*rng.Float64()
			n := 3 + rng.IntN(6)
			for k := 0; k < n; k++ {
				emit(vocab[rng.IntN(len(vocab))])
			}
		}
	}
	return words, truth
}

// BoundaryScore compares an alignment with the truth of a synthesized
// transcript.
type BoundaryScore struct {
	// Boundaries counts the start and end boundaries of the lines present
	// in the transcript (two per line).
	Boundaries int `json:"boundaries"`
	// Exact counts boundaries found at exactly the right transcript word;
	// WithinTolerance those within Tolerance seconds.
	Exact           int     `json:"exact"`
	WithinTolerance int     `json:"within_tolerance"`
	Tolerance       float64 `json:"tolerance_s"`
	// ExactRate and ToleranceRate are the shares.
	ExactRate     float64 `json:"exact_rate"`
	ToleranceRate float64 `json:"tolerance_rate"`
	// DeletedLines counts lines absent from the transcript, and
	// DeletedRejected those the validation rejected (as it should).
	DeletedLines    int `json:"deleted_lines"`
	DeletedRejected int `json:"deleted_rejected"`
	// PresentValid counts lines present and not paraphrased that passed
	// validation, of PresentLines.
	PresentLines int `json:"present_lines"`
	PresentValid int `json:"present_valid"`
}

// ScoreBoundaries counts recovered sentence boundaries: a line's start
// (end) is recovered when the first (last) transcript word aligned to it
// is the truth's, or within tol seconds of it.
func ScoreBoundaries(a *Alignment, truth []Truth, words []Word, tol float64) BoundaryScore {
	s := BoundaryScore{Tolerance: tol}
	for i, tr := range truth {
		l := a.Lines[i]
		if tr.FirstWord < 0 {
			s.DeletedLines++
			if !l.Valid {
				s.DeletedRejected++
			}
			continue
		}
		if !tr.Paraphrased {
			s.PresentLines++
			if l.Valid {
				s.PresentValid++
			}
		}
		s.Boundaries += 2
		if l.FirstWord < 0 {
			continue
		}
		for _, p := range [][2]int{{l.FirstWord, tr.FirstWord}, {l.LastWord, tr.LastWord}} {
			if p[0] == p[1] {
				s.Exact++
				s.WithinTolerance++
			} else if d := words[p[0]].Start - words[p[1]].Start; d <= tol && d >= -tol {
				s.WithinTolerance++
			}
		}
	}
	if s.Boundaries > 0 {
		s.ExactRate = float64(s.Exact) / float64(s.Boundaries)
		s.ToleranceRate = float64(s.WithinTolerance) / float64(s.Boundaries)
	}
	return s
}

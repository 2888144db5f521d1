package verifier

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"

	"github.com/roleprint/roleprint/internal/fsx"
)

// LoadOptions say where a loaded verifier runs.
type LoadOptions struct {
	// Backend is the GoMLX backend ("" = default); BatchSize texts per
	// batch (0 = default); Logf receives notes.
	Backend   string
	BatchSize int
	Logf      func(string, ...any)
}

// Verifier is a loaded bundle.
type Verifier struct {
	// Dir is the bundle folder and Spec its verifier.json.
	Dir  string
	Spec Spec
	// Domain is the text the bundle was trained on (nil when the bundle
	// records none).
	Domain *Domain
	// Speakers are the bundle's training speakers (nil when it records
	// none): Nearest ranks them.
	Speakers *Speakers
	enc      *mixture
	// scorer is enc as the bundle scores: enc itself, or a scoredMixture
	// when a part scores pairs itself (scored_mixture.go).
	scorer sv.Encoder
}

// ReadSpec reads and checks dir's verifier.json and that every file it
// names is present; errors name the file.
func ReadSpec(dir string) (*Spec, error) {
	path := filepath.Join(dir, SpecFile)
	b, err := fsx.ReadFile(path, fsx.MaxInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("verifier %s: %s is missing (not a verifier bundle? `roleprint reproduce` and `roleprint train` write one to OUT/verifier)", dir, SpecFile)
	}
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	if s.Format != Format {
		return nil, fmt.Errorf("verifier %s: format %q, want %q", path, s.Format, Format)
	}
	if s.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("verifier %s: format version %d, this roleprint reads version %d (write the bundle again with this version)", path, s.FormatVersion, FormatVersion)
	}
	if len(s.Parts) == 0 {
		return nil, fmt.Errorf("verifier %s: no parts", path)
	}
	for _, f := range []struct{ key, value, a, b string }{
		{"calibration_source", s.CalibrationSource, CalibrationDev, CalibrationHeldOut},
		{"calibration_scoring", s.CalibrationScoring, ScoringAsSaved, ScoringAdapted},
		{"calibration_adapted_source", s.CalibrationAdaptedSource, CalibrationDev, CalibrationHeldOut},
	} {
		if f.value != "" && f.value != f.a && f.value != f.b {
			return nil, fmt.Errorf("verifier %s: %s %q: want %q or %q", path, f.key, f.value, f.a, f.b)
		}
	}
	files := []string{s.Manifest}
	if s.DomainFile != "" {
		files = append(files, s.DomainFile)
	}
	if s.FitTexts != "" {
		files = append(files, s.FitTexts)
	}
	if s.SpeakersFile != "" {
		files = append(files, s.SpeakersFile)
	}
	if s.FitSourcesFile != "" {
		if s.FitTexts == "" {
			return nil, fmt.Errorf("verifier %s: fit_sources names %s, but fit_texts is empty", path, s.FitSourcesFile)
		}
		files = append(files, s.FitSourcesFile)
	}
	for i, p := range s.Parts {
		if p.Encoder == "" || !(p.Weight > 0) {
			return nil, fmt.Errorf("verifier %s: part %d (%s): want an encoder name and a weight > 0", path, i+1, p.Row)
		}
		if p.Fit && s.FitTexts == "" {
			return nil, fmt.Errorf("verifier %s: part %s needs fit texts, but fit_texts is empty", path, p.Row)
		}
		keys := make([]string, 0, len(p.Files))
		for k := range p.Files {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			files = append(files, p.Files[k])
		}
	}
	for _, f := range files {
		if f == "" || filepath.IsAbs(f) || f != filepath.Base(f) {
			return nil, fmt.Errorf("verifier %s: file name %q: want a plain name inside the bundle", path, f)
		}
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, fmt.Errorf("verifier %s: %s is missing (named in %s): %w", dir, f, SpecFile, err)
		}
	}
	return &s, nil
}

// Load reads the bundle in dir and rebuilds its encoders (fitting the
// Fitter parts on the bundle's fit texts, with their sources for the
// sv.SourceFitter parts when the bundle has them). Close it after use.
func Load(ctx context.Context, dir string, o LoadOptions) (*Verifier, error) {
	s, err := ReadSpec(dir)
	if err != nil {
		return nil, err
	}
	var fit, sources []string
	if s.FitTexts != "" {
		if fit, err = readLines(filepath.Join(dir, s.FitTexts)); err != nil {
			return nil, err
		}
	}
	if s.FitSourcesFile != "" {
		if sources, err = readLines(filepath.Join(dir, s.FitSourcesFile)); err != nil {
			return nil, err
		}
		if sources == nil {
			sources = []string{} // an empty file still means "with sources"
		}
		if len(sources) != len(fit) {
			return nil, fmt.Errorf("verifier %s: %s has %d lines but %s has %d: want one source per fit text", dir, s.FitSourcesFile, len(sources), s.FitTexts, len(fit))
		}
	}
	m := &mixture{name: s.Name}
	for _, p := range s.Parts {
		settings := map[string]string{}
		for k, v := range p.Settings {
			settings[k] = v
		}
		for k, f := range p.Files {
			settings[k] = filepath.Join(dir, f)
		}
		enc, err := sv.NewEncoder(p.Encoder, sv.EncoderOptions{Backend: o.Backend, BatchSize: o.BatchSize, Seed: p.Seed, Settings: settings, Logf: o.Logf})
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("verifier %s: part %s: %w", dir, p.Row, err)
		}
		m.parts = append(m.parts, enc)
		m.weights = append(m.weights, p.Weight)
		if f, ok := enc.(sv.Fitter); ok && p.Fit {
			if err := sv.FitWithSources(ctx, f, fit, sources); err != nil {
				m.Close()
				return nil, fmt.Errorf("verifier %s: part %s: fit: %w", dir, p.Row, err)
			}
		}
	}
	v := &Verifier{Dir: dir, Spec: *s, enc: m}
	v.scorer = m.encoder(s.Scores == ScoresParts)
	if v.Spec.CalibrationScoring == "" && v.Spec.CalibrationSource == CalibrationHeldOut && !m.CanAdapt() {
		// A held-out calibration written before calibration_scoring
		// existed was fitted on the folds' scores with --adapt auto, which
		// leaves a bundle without a part that adapts as saved.
		v.Spec.CalibrationScoring = ScoringAsSaved
	}
	if s.DomainFile != "" {
		if v.Domain, err = ReadDomain(dir); err != nil {
			m.Close()
			return nil, err
		}
	}
	if s.SpeakersFile != "" {
		if v.Speakers, err = readSpeakers(dir, s.SpeakersFile); err != nil {
			m.Close()
			return nil, err
		}
		if err := v.Speakers.matches(m); err != nil {
			m.Close()
			return nil, fmt.Errorf("verifier %s: %s: %w", dir, s.SpeakersFile, err)
		}
	}
	return v, nil
}

// ReadDomain reads the Domain of the bundle in dir (nil, nil when it
// records none).
func ReadDomain(dir string) (*Domain, error) {
	s, err := ReadSpec(dir)
	if err != nil || s.DomainFile == "" {
		return nil, err
	}
	path := filepath.Join(dir, s.DomainFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	var d Domain
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	if err := d.valid(); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	d.index()
	return &d, nil
}

// ReadFitTexts reads the training texts of the bundle in dir (its spec's
// FitTexts file, one text per line, as Load reads them): what its Fitter
// parts were fitted on. A bundle without fit texts is an error.
func ReadFitTexts(dir string) ([]string, error) {
	s, err := ReadSpec(dir)
	if err != nil {
		return nil, err
	}
	if s.FitTexts == "" {
		return nil, fmt.Errorf("verifier %s: the bundle has no fit texts (verifier.json names no fit_texts file)", dir)
	}
	return readLines(filepath.Join(dir, s.FitTexts))
}

// readLines reads one text per line.
func readLines(path string) ([]string, error) {
	f, err := fsx.Open(path)
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var out []string
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	return out, nil
}

// Encoder returns the verifier's encoder (not an sv.Fitter: its state is
// the bundle's). The Verifier owns it: Close the Verifier, not it.
func (v *Verifier) Encoder() sv.Encoder { return v.scorer }

// Close releases the encoders.
func (v *Verifier) Close() error { return v.enc.Close() }

// DecisionProbability is the calibrated same-speaker probability at or
// above which a verdict is "same speaker": the decision is stated on the
// probability it reports, so the two never disagree.
const DecisionProbability = 0.5

// Result is the verdict on two utterance sets.
type Result struct {
	// Score is the verifier's score: the cosine of the two sets' vectors,
	// or, for a bundle with a part that scores pairs itself (an s-norm
	// ngram-metric part, scored_mixture.go), the weighted mean of the
	// parts' scores (unbounded). Cosine repeats it only when it is a
	// cosine (nil otherwise).
	Score  float64  `json:"score"`
	Cosine *float64 `json:"cosine,omitempty"`
	// Probability is the calibrated same-speaker probability of Score.
	Probability float64 `json:"probability"`
	// Threshold is the probability at or above which Same is true
	// (DecisionProbability); ScoreThreshold the score where the
	// calibration reaches it (NaN for a flat calibration).
	Threshold      float64     `json:"threshold"`
	ScoreThreshold stats.Float `json:"score_threshold"`
	// Same is Probability ≥ Threshold.
	Same bool `json:"same"`
	// Scoring is how Score was computed (ScoringAsSaved for Verify);
	// CalibrationSource and CalibrationScoring say what the calibration
	// that gave Probability was fitted on (Spec.CalibrationFor): its
	// pairs (CalibrationDev, CalibrationHeldOut) and how their scores were
	// computed, which is Scoring unless the bundle has no calibration of
	// that mode.
	Scoring            string `json:"scoring"`
	CalibrationSource  string `json:"calibration_source"`
	CalibrationScoring string `json:"calibration_scoring"`
	// InDomain says whether both sets lie within the bundle's Domain (nil,
	// JSON null, when the bundle records none); A and B are the sets'
	// checks.
	InDomain *bool        `json:"in_domain"`
	A        *DomainCheck `json:"domain_a,omitempty"`
	B        *DomainCheck `json:"domain_b,omitempty"`
}

// Verify scores two utterance sets (each pooled as the verifier's rows
// pool sets) with the bundle as saved, reads the score through the
// calibration of as-saved scores, and checks both sets against the
// bundle's Domain.
func (v *Verifier) Verify(ctx context.Context, a, b []string) (Result, error) {
	if len(a) == 0 || len(b) == 0 {
		return Result{}, fmt.Errorf("verify: both utterance sets need at least one utterance (got %d and %d)", len(a), len(b))
	}
	sets := []*pairs.UtteranceSet{{ID: "a", Texts: a}, {ID: "b", Texts: b}}
	emb, err := sv.EmbedSets(ctx, v.scorer, sets, nil)
	if err != nil {
		return Result{}, err
	}
	r := v.Judge(sv.ScorePair(v.scorer, emb["a"], emb["b"]))
	if v.Domain != nil {
		ca, cb := v.Domain.Check(a), v.Domain.Check(b)
		in := ca.InDomain && cb.InDomain
		r.InDomain, r.A, r.B = &in, &ca, &cb
	}
	return r, nil
}

// ScoreIsCosine reports whether the bundle's score is a cosine (no part
// scores pairs itself).
func (v *Verifier) ScoreIsCosine() bool {
	_, scored := v.scorer.(scoredMixture)
	return !scored
}

// Judge turns a score of the bundle as saved (Result.Score) into a
// Result: its probability under the calibration of as-saved scores and
// the verdict at DecisionProbability.
func (v *Verifier) Judge(score float64) Result { return v.JudgeAs(score, ScoringAsSaved) }

// JudgeAs is Judge for a score computed by scoring (ScoringAsSaved,
// ScoringAdapted): the probability comes from Spec.CalibrationFor(scoring).
func (v *Verifier) JudgeAs(score float64, scoring string) Result {
	mc := v.Spec.CalibrationFor(scoring)
	p := mc.Calibration.Probability(score)
	r := Result{Score: score, Probability: p, Threshold: DecisionProbability,
		ScoreThreshold: stats.Float(mc.Calibration.ScoreAt(DecisionProbability)), Same: p >= DecisionProbability,
		Scoring: mc.Scoring, CalibrationSource: mc.Source, CalibrationScoring: mc.FittedOn}
	if v.ScoreIsCosine() {
		r.Cosine = &score
	}
	return r
}

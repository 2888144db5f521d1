package verifier

import (
	"fmt"
	"time"
)

// Format and FormatVersion identify a bundle's verifier.json. Loading a
// bundle with another version is an error: the files' meaning may differ.
const (
	Format        = "roleprint-verifier"
	FormatVersion = 1
	// SpecFile is the bundle's description; FitFile, FitSourcesFile and
	// ManifestFile the fit texts, their sources and the training manifest.
	SpecFile       = "verifier.json"
	FitFile        = "fit.txt"
	FitSourcesFile = "fit-sources.txt"
	ManifestFile   = "manifest.json"
	// DomainFile holds the bundle's Domain (domain.go).
	DomainFile = "domain.json"
)

// Spec is the content of verifier.json.
type Spec struct {
	// Format and FormatVersion identify the file (Format, FormatVersion).
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	// Name is the row the verifier reproduces ("transformer_ft", "mixed_ft").
	Name string `json:"name"`
	// Created is when the bundle was written.
	Created time.Time `json:"created"`
	// Parts are the encoders whose cosines are mixed.
	Parts []Part `json:"parts"`
	// FitTexts names the file of training texts Fitter parts are fitted on
	// when the bundle loads ("" when no part needs fitting).
	FitTexts string `json:"fit_texts,omitempty"`
	// FitSourcesFile names the file of the fit texts' sources, one per
	// line of FitTexts ("" when the bundle has none): parts that are
	// sv.SourceFitters are fitted with them (tfidf's center_by). An
	// optional addition: bundles without it load as before.
	FitSourcesFile string `json:"fit_sources,omitempty"`
	// Scores is "parts" when the bundle scores pairs by the weighted mean
	// of its parts' own scores (a part is an sv.PairScorer: an s-norm
	// ngram-metric part, lsm; scored_mixture.go), as mixed_ft fused them
	// and the threshold and calibration were fitted on; "" (bundles saved
	// before it existed) is the cosine of the mixture. An optional
	// addition to version 1.
	Scores string `json:"scores,omitempty"`
	// Threshold is the score chosen on the dev pairs by Criterion, kept as
	// a record: verdicts are stated on the calibrated probability
	// (DecisionProbability), whose score threshold is
	// Calibration.ScoreAt(DecisionProbability).
	Threshold float64 `json:"threshold"`
	Criterion string  `json:"criterion"`
	// Calibration maps a cosine to a same-speaker probability.
	Calibration Calibration `json:"calibration"`
	// CalibrationSource says which scores Calibration was fitted on:
	// CalibrationDev ("" in bundles written before it existed) or
	// CalibrationHeldOut; CalibrationNote describes them (corpora,
	// level, pairs). An optional addition to version 1.
	CalibrationSource string `json:"calibration_source,omitempty"`
	CalibrationNote   string `json:"calibration_note,omitempty"`
	// CalibrationScoring says how the scores Calibration was fitted on
	// were computed: ScoringAsSaved (the bundle as saved, what `verify`
	// computes) or ScoringAdapted. "" (bundles written before it existed)
	// reads as as_saved for a dev-pair calibration and as adapted for a
	// held-out one (the transfer folds of that version scored adapted).
	// An optional addition to version 1.
	CalibrationScoring string `json:"calibration_scoring,omitempty"`
	// CalibrationAdapted, when set, maps a score of the bundle adapted
	// without labels to the scored corpus (sv.Adapter: `eval --adapt`,
	// `score --adapt`) to P(same), fitted on scores computed that way;
	// CalibrationAdaptedSource and CalibrationAdaptedNote say what it was
	// fitted on. Without it every score is read through Calibration
	// (CalibrationFor says so). An optional addition to version 1.
	CalibrationAdapted       *Calibration `json:"calibration_adapted,omitempty"`
	CalibrationAdaptedSource string       `json:"calibration_adapted_source,omitempty"`
	CalibrationAdaptedNote   string       `json:"calibration_adapted_note,omitempty"`
	// Dev describes the dev pairs the threshold (and, unless
	// CalibrationSource says otherwise, the calibration) come from.
	Dev DevStats `json:"dev"`
	// Manifest names the training manifest file.
	Manifest string `json:"manifest"`
	// DomainFile names the file of the bundle's Domain, the text it was
	// trained on ("" for a bundle without one: then nothing can say
	// whether a text is outside it). An optional addition to version 1.
	DomainFile string `json:"domain,omitempty"`
	// Demonstration, when set, says why the bundle is a demonstration and
	// not a verifier for other text (the embedded default's: one
	// playwright); verify, score and eval repeat it. An optional addition
	// to version 1.
	Demonstration string `json:"demonstration,omitempty"`
	// SpeakersFile names the file of the bundle's training speakers
	// (speakers.go: SpeakersFile, with its own format version); "" for a
	// bundle without them, which loads but names no nearest speakers. An
	// optional addition to version 1.
	SpeakersFile string `json:"speakers,omitempty"`
}

// Calibration sources of Spec.CalibrationSource.
const (
	// CalibrationDev: the run's dev pairs, corpora the bundle was trained on.
	CalibrationDev = "dev_pairs"
	// CalibrationHeldOut: the pooled scores of leave-one-corpus-out folds
	// on the corpus each fold never trained on (table2's transfer folds),
	// so that P(same) means the same on a show the bundle never saw.
	CalibrationHeldOut = "held_out_corpora"
)

// Scoring modes: how a bundle computed a score (CalibrationFor).
const (
	// ScoringAsSaved: the bundle as saved (its training centring, cohort
	// and vocabulary), as `verify`, `score --adapt=false` and `eval
	// --adapt none` score.
	ScoringAsSaved = "as_saved"
	// ScoringAdapted: the bundle adapted without labels to the scored
	// texts (sv.Adapter), as `eval` (for corpora it was not trained on)
	// and `score` score by default.
	ScoringAdapted = "adapted"
)

// ModeCalibration is the calibration that reads scores computed one
// way, and what it was fitted on.
type ModeCalibration struct {
	// Scoring is how the scores read through it were computed
	// (ScoringAsSaved, ScoringAdapted); Source (CalibrationDev,
	// CalibrationHeldOut) and FittedOn (a scoring mode) what it was
	// fitted on; Note describes those scores, and says so when FittedOn
	// is not Scoring (the bundle has no calibration of that mode).
	Scoring  string `json:"scoring"`
	Source   string `json:"calibration_source"`
	FittedOn string `json:"calibration_scoring"`
	Note     string `json:"calibration_note,omitempty"`
	// Calibration maps a score to P(same).
	Calibration Calibration `json:"calibration"`
}

// Matches reports whether the calibration was fitted on scores computed
// as the ones it reads.
func (m ModeCalibration) Matches() bool { return m.Scoring == m.FittedOn }

// CalibrationFor returns the calibration of scores computed by scoring
// (ScoringAsSaved or ScoringAdapted; anything else reads as as_saved):
// CalibrationAdapted for adapted scores when the bundle has one, else
// Calibration, with FittedOn saying which scores that was fitted on.
func (s *Spec) CalibrationFor(scoring string) ModeCalibration {
	if scoring != ScoringAdapted {
		scoring = ScoringAsSaved
	}
	if scoring == ScoringAdapted && s.CalibrationAdapted != nil {
		return ModeCalibration{Calibration: *s.CalibrationAdapted, Scoring: scoring, Source: s.CalibrationAdaptedSource,
			FittedOn: ScoringAdapted, Note: s.CalibrationAdaptedNote}
	}
	src := s.CalibrationSource
	if src == "" {
		src = CalibrationDev
	}
	fitted := s.CalibrationScoring
	if fitted == "" {
		fitted = ScoringAsSaved
		if src == CalibrationHeldOut {
			fitted = ScoringAdapted
		}
	}
	m := ModeCalibration{Calibration: s.Calibration, Scoring: scoring, Source: src, FittedOn: fitted, Note: s.CalibrationNote}
	if !m.Matches() {
		gap := fmt.Sprintf("the bundle has no calibration of %s scores: its calibration, fitted on %s scores (%s), reads them", scoring, fitted, src)
		if m.Note != "" {
			gap += "; " + m.Note
		}
		m.Note = gap
	}
	return m
}

// Part is one encoder of a bundle.
type Part struct {
	// Row is its row name in the run ("transformer_ft", "tfidf").
	Row string `json:"row"`
	// Encoder is the registered encoder that rebuilds it (the untuned
	// name: its weights come from Files["weights"]).
	Encoder string `json:"encoder"`
	// Settings are its encoder settings; Files the settings that name
	// files inside the bundle ("weights", "vocab"), resolved at load.
	Settings map[string]string `json:"settings,omitempty"`
	Files    map[string]string `json:"files,omitempty"`
	// Seed is its encoder seed.
	Seed int64 `json:"seed"`
	// Weight is its weight in the mixed cosine (> 0).
	Weight float64 `json:"weight"`
	// Fit says the part is fitted on the bundle's fit texts at load.
	Fit bool `json:"fit,omitempty"`
}

// DevStats summarise the dev pairs a bundle was calibrated on.
type DevStats struct {
	Pairs    int     `json:"pairs"`
	Positive int     `json:"positive"`
	AUC      float64 `json:"auc"`
	// Accuracy is the dev accuracy at Threshold.
	Accuracy float64 `json:"accuracy"`
}

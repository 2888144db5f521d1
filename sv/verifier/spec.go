package verifier

import "time"

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

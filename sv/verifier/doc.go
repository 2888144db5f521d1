// Package verifier saves and loads a trained speaker verifier as a folder
// (a bundle): the encoders' trained weights, their settings and
// vocabularies, the texts its fitted parts were fitted on, the dev-set
// threshold, a calibration from cosine to same-speaker probability and
// the manifest of the data it was trained on.
//
// Layout of a bundle folder (OUT/verifier/ of `roleprint reproduce` and
// `roleprint train`):
//
//	verifier.json       the Spec: format and version, parts, threshold, calibration
//	PART.rpck           a fine-tuned part's weights (model and head variables)
//	PART-*vocab.txt     its WordPiece vocabulary (transformer parts)
//	fit.txt             training texts, one per line, that Fitter parts are fitted on at load
//	fit-sources.txt     each fit text's Source, one per line (optional): SourceFitter parts use them
//	manifest.json       what the verifier was trained on
//
// A bundle's score of two utterance sets is the weighted mean of its parts'
// cosines (one part: that part's cosine), which is the cosine of the
// concatenated, L2-normalised part embeddings each scaled by √weight; the
// calibration maps it to a probability, and the threshold (chosen on the
// dev pairs) to same/different.
package verifier

// Package verifier saves and loads a trained speaker verifier as a folder
// (a bundle): the encoders' trained weights, their settings and
// vocabularies, the texts its fitted parts were fitted on, a calibration
// from score to same-speaker probability, the domain of text it was
// trained on and the manifest of that data; and evaluates a bundle,
// frozen, on corpora it was not trained on (Evaluate).
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
//	domain.json         the Domain of its training text (optional)
//
// A bundle's score of two utterance sets is the weighted mean of its parts'
// cosines (one part: that part's cosine), which is the cosine of the
// concatenated, L2-normalised part embeddings each scaled by √weight (a
// bundle whose part scores pairs itself: the weighted mean of the parts'
// scores); the calibration maps it to a probability, and the verdict is
// "same speaker" when that probability is at least DecisionProbability
// (0.5), so the two never disagree. Verify, score and eval say when a text
// lies outside the bundle's Domain.
package verifier

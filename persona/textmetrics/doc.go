// Package textmetrics scores generated text against references: ROUGE-L,
// METEOR (exact, Porter-stem and WordNet-synonym matching), a
// BERTScore-style F1 over the vectors of any encoder (an
// sv/encoder.Encoder, which every sv.Encoder is), and near-duplicate
// removal by embedding similarity (VoxRole Table 2, SpeechRole's dataset
// deduplication).
//
// Conventions follow the implementations the papers' numbers come from:
// ROUGE-L is Google's rouge-score (LCS F-measure over lower-cased
// alphanumeric tokens, best over references); METEOR is NLTK's
// meteor_score as wrapped by Hugging Face evaluate (α = 0.9, β = 3,
// γ = 0.5, stage-wise exact → stem → synonym alignment, best over
// references). Scores are fractions in [0, 1]; tables multiply by 100.
package textmetrics

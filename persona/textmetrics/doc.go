// Package textmetrics scores generated text against references: ROUGE-L,
// METEOR (exact, Porter-stem and WordNet-synonym matching), BERTScore
// (ContextualBERTScore: a Hub model's contextual token vectors at one
// layer, as the BERTScore paper and bert_score compute it, with idf and
// rescaling by bert_score's published baselines; BERTScore: the same
// matching over static vectors of any sv/encoder.Encoder, the offline
// fallback), and near-duplicate removal by embedding similarity (VoxRole
// Table 2, SpeechRole's dataset deduplication with its MiniLM/bge models
// per language, SpeechRoleDedupModels).
//
// Conventions follow the implementations the papers' numbers come from:
// ROUGE-L is Google's rouge-score (LCS F-measure over lower-cased
// alphanumeric tokens, best over references); METEOR is NLTK's
// meteor_score as wrapped by Hugging Face evaluate (α = 0.9, β = 3,
// γ = 0.5, stage-wise exact → stem → synonym alignment, best over
// references). Scores are fractions in [0, 1]; tables multiply by 100.
package textmetrics

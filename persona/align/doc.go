// Package align implements VoxRole's script–transcript alignment: a
// script (speaker lines without timing) is aligned word by word to an ASR
// transcript (words with timestamps) by minimum edit distance, each
// script line takes the time span of the transcript words aligned to it,
// each line is validated by the semantic similarity between its text and
// the transcript span it covers (threshold 0.8 under any sv/encoder.Encoder, as every sv.Encoder is:
// VoxRole's MPNet, VoxRoleCheckModel, from the Hugging Face Hub through
// sv/neural; the package default is textmetrics' cheap lexical
// HashEncoder, the offline fallback), lines below it are flagged
// (Alignment.LowSimilarity), and consecutive
// validated exchanges between exactly two speakers of at least three turns
// are extracted as segments.
package align

package align

// VoxRoleCheckModel is the sentence-embedding model VoxRole validates
// alignments with: MPNet, as sentence-transformers' all-mpnet-base-v2 on
// the Hugging Face Hub. A line whose text and aligned transcript span have
// a cosine below the threshold (DefaultThreshold) is flagged.
const VoxRoleCheckModel = "sentence-transformers/all-mpnet-base-v2"

// DefaultThreshold is VoxRole's validation cosine.
const DefaultThreshold = 0.8

// LowSimilarity returns the aligned lines whose similarity with their
// transcript span is below the threshold: alignments to check. Lines with
// no aligned transcript word are not among them (Stats counts them as
// invalid too).
func (a *Alignment) LowSimilarity() []AlignedLine {
	var out []AlignedLine
	for _, l := range a.Lines {
		if l.FirstWord >= 0 && !l.Valid {
			out = append(out, l)
		}
	}
	return out
}

package speech

// SpeakerEmbedder embeds a clip's voice: a pretrained neural model
// (speech/spkemb, from the Hugging Face cache) in place of Embed's MFCC
// statistics, which stay the offline fallback.
type SpeakerEmbedder interface {
	// Name identifies the model ("hf:ORG/NAME").
	Name() string
	// Embed returns the speaker embedding of s.
	Embed(s *Sound) ([]float64, error)
}

// MFCCStatsName names Embed's MFCC statistics in outputs: the embedding
// used when no neural embedder is given, and no speaker model.
const MFCCStatsName = "mfcc-stats (offline fallback)"

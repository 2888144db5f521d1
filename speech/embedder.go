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

// embedderName is cfg's embedder's name, MFCCStatsName without one.
func (cfg CorpusConfig) embedderName() string {
	if cfg.Embedder != nil {
		return cfg.Embedder.Name()
	}
	return MFCCStatsName
}

// neuralName is the neural embedder's name, "" without one.
func neuralName(cfg CorpusConfig) string {
	if cfg.Embedder != nil {
		return cfg.Embedder.Name()
	}
	return ""
}

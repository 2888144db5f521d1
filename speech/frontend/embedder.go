package frontend

import "github.com/roleprint/roleprint/speech"

// embedderName is cfg's embedder's name, MFCCStatsName without one.
func (cfg CorpusConfig) embedderName() string {
	if cfg.Embedder != nil {
		return cfg.Embedder.Name()
	}
	return speech.MFCCStatsName
}

// neuralName is the neural embedder's name, "" without one.
func neuralName(cfg CorpusConfig) string {
	if cfg.Embedder != nil {
		return cfg.Embedder.Name()
	}
	return ""
}

package table2

import (
	"fmt"
	"path/filepath"
)

// DevCosines returns the row's cosines of the dev pairs (in pair order):
// the cosines of its set embeddings, also for rows that score pairs with
// their own similarity; for mixed_ft, its fused scores (of the parts' own
// scores, which a bundle of it computes); nil when the row has no scores.
// A verifier bundle calibrates on them (sv/verifier).
func (er *EncoderRound) DevCosines() []float64 {
	if er.scores == nil {
		return nil
	}
	dev, _ := er.scores.cosines("")
	return dev
}

// EncoderWorkDir is the folder RunConfig gives the encoder of row name in
// round (1-based) as EncoderOptions.WorkDir: GoMLX rows keep their training
// checkpoints in its "checkpoints" subfolder. Empty without CheckpointDir.
func (c *Config) EncoderWorkDir(round int, name string) string {
	if c.CheckpointDir == "" {
		return ""
	}
	return filepath.Join(c.CheckpointDir, fmt.Sprintf("round-%d", round), name+".work")
}

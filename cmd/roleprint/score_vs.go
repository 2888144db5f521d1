package main

import (
	"context"
	"fmt"
	"os"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// scoreVsEncoder builds the encoder of `score --vs`: a verifier bundle
// when vs is a folder, else the registered encoder of that name with its
// default settings; errors name the flag. It is built before any data is
// read, as the main encoder is, so a typo fails at once. No --vs (vs
// "") gives a nil encoder and a no-op close.
func scoreVsEncoder(ctx context.Context, e *env, vs string, opts sv.EncoderOptions) (sv.Encoder, func(), error) {
	if vs == "" {
		return nil, func() {}, nil
	}
	name, dir := vs, ""
	if st, err := os.Stat(vs); err == nil && st.IsDir() {
		name, dir = "", vs
	}
	if _, ft := sv.SplitFineTuned(name); ft {
		return nil, nil, usagef("--vs %s: score uses untrained encoders or a verifier bundle folder (OUT/verifier)", name)
	}
	enc, closeEnc, err := scoreEncoder(ctx, e, dir, name, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("--vs %s: %w", vs, err)
	}
	return enc, closeEnc, nil
}

// scoreVs scores real and gen again with enc, the encoder of `score --vs
// VS`, on the sets of rep (the same cfg; Adapt only when enc is a bundle
// that can adapt) and compares the separations
// (roleplay.CompareSeparation). Call it before chunked distributions
// replace rep's.
func scoreVs(ctx context.Context, e *env, vs string, enc sv.Encoder, real, gen []data.Utterance, cfg roleplay.Config, rep *roleplay.Report) ([]roleplay.SeparationComparison, error) {
	if _, ok := enc.(sv.Adapter); !ok {
		cfg.Adapt = false
	}
	report, finish := e.progress("score: embed " + vs)
	other, err := roleplay.Score(ctx, enc, real, gen, cfg, report)
	finish()
	if err != nil {
		return nil, fmt.Errorf("--vs %s: %w", vs, err)
	}
	return roleplay.CompareSeparation(rep, other)
}

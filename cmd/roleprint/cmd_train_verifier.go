package main

import (
	"context"
	"path/filepath"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/neural"
	"github.com/roleprint/roleprint/sv/verifier"
)

// trainSaveVerifier writes the trained encoder as a verifier bundle to
// OUT/verifier: threshold and calibration from the dev pairs, res as its
// manifest. Without dev pairs it writes nothing and says so.
func trainSaveVerifier(ctx context.Context, e *env, enc sv.Encoder, c *pairs.PairCorpus, out string, res trainOutput) (string, error) {
	if len(c.Dev) == 0 {
		e.Logf("train: no dev pairs, so no verifier bundle (its threshold and calibration come from dev pairs)")
		return "", nil
	}
	cos, labels, err := verifier.DevCosines(ctx, enc, c)
	if err != nil {
		return "", err
	}
	settings := map[string]string{}
	for k, v := range res.Settings {
		if k != neural.SetCheckpointDir {
			settings[k] = v
		}
	}
	dir := filepath.Join(out, "verifier")
	parts := []verifier.SavePart{{Row: res.Encoder, Encoder: enc, Settings: settings, Seed: res.Seed, Weight: 1}}
	speakers, err := verifier.SpeakerProfiles(ctx, parts, verifier.TrainSpeakerSets(c), 0)
	if err != nil {
		e.Logf("train: the verifier bundle records no training speakers: %v", err)
		speakers = nil
	}
	spec, err := verifier.Save(dir, verifier.SaveOptions{Name: res.Encoder, DevCosines: cos, DevLabels: labels, Manifest: res,
		Domain: bundleDomain(e, "train", c), Parts: parts, Speakers: speakers})
	if err != nil {
		return "", err
	}
	e.Logf("train: verifier bundle in %s (dev AUC %.4f, threshold %.4f); use it with `roleprint verify --verifier %s A.txt B.txt`",
		dir, spec.Dev.AUC, spec.Threshold, dir)
	return dir, nil
}

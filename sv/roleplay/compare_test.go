package roleplay

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv"
)

// scaledBow is bowEncoder under another name with every vector doubled:
// the same cosines, so the same separation and bootstrap replicates when
// the draws do not depend on the encoder.
type scaledBow struct{ bowEncoder }

func (scaledBow) Name() string { return "bow×2" }
func (scaledBow) Dim() int     { return 128 }
func (s scaledBow) Encode(ctx context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	out, err := s.bowEncoder.Encode(ctx, texts, p)
	for _, v := range out {
		for k := range v {
			v[k] *= 2
		}
	}
	return out, err
}

// noisyBow is bowEncoder with random counts added to every vector: a
// worse separation of the same sets.
type noisyBow struct{ bowEncoder }

func (noisyBow) Name() string { return "noisy" }
func (s noisyBow) Encode(ctx context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	out, err := s.bowEncoder.Encode(ctx, texts, p)
	for i, v := range out {
		rng := rand.New(rand.NewPCG(uint64(len(texts[i])), uint64(i)))
		for k := range v {
			v[k] += float32(rng.IntN(3))
		}
	}
	return out, err
}

func TestCompareSeparation(t *testing.T) {
	real, gen := synthetic(9)
	cfg := DefaultConfig()
	cfg.Bootstrap = 300
	score := func(enc sv.Encoder, c Config, r []data.Utterance) *Report {
		t.Helper()
		rep, err := Score(context.Background(), enc, r, gen, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	bow := score(bowEncoder{}, cfg, real)

	// Same cosines under another encoder name: every paired difference is 0.
	same, err := CompareSeparation(bow, score(scaledBow{}, cfg, real))
	if err != nil {
		t.Fatal(err)
	}
	if len(same) != len(bow.Distributions) {
		t.Fatalf("%d comparisons for %d distributions", len(same), len(bow.Distributions))
	}
	paired := 0
	for _, c := range same {
		if c.A != "bow" || c.B != "bow×2" {
			t.Errorf("names %q, %q", c.A, c.B)
		}
		if c.Replicates == 0 {
			continue
		}
		paired++
		if !near(float64(c.AUCDiff), 0) || !near(float64(c.AUCDiffCI[0]), 0) || !near(float64(c.AUCDiffCI[1]), 0) || c.ShareNotAbove != 1 {
			t.Errorf("%s %s: the same cosines give diff %v, interval %v, share not above %v; want 0, [0, 0], 1 (draws not paired?)",
				c.Model, c.Kind, c.AUCDiff, c.AUCDiffCI, c.ShareNotAbove)
		}
	}
	if paired == 0 {
		t.Fatal("no distribution with bootstrap replicates")
	}

	// A noisier encoder separates worse, and the paired interval says so.
	worse, err := CompareSeparation(bow, score(noisyBow{}, cfg, real))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range worse {
		if c.Model != cfg.RealModel || c.Kind != RealGenerated {
			continue
		}
		if !(c.AUCDiff > 0 && c.AUCDiffCI[0] <= c.AUCDiff && c.AUCDiff <= c.AUCDiffCI[1] && c.ShareNotAbove < 0.5 && c.Replicates > cfg.Bootstrap/2) {
			t.Errorf("bow against noisy: diff %v, interval %v, share not above %v, %d replicates", c.AUCDiff, c.AUCDiffCI, c.ShareNotAbove, c.Replicates)
		}
	}

	// Other draws or other sets are refused.
	other := cfg
	other.Seed = 2
	if _, err := CompareSeparation(bow, score(bowEncoder{}, other, real)); err == nil || !strings.Contains(err.Error(), "other sets or draws") {
		t.Errorf("another seed: %v", err)
	}
	held := cfg
	held.HeldOut = 0.3
	if _, err := CompareSeparation(bow, score(bowEncoder{}, held, real)); err == nil || !strings.Contains(err.Error(), "other sets or draws") {
		t.Errorf("another held-out fraction: %v", err)
	}
	// Equal counts, other pairs: the fingerprint tells.
	moved := *score(scaledBow{}, cfg, real)
	moved.Distributions = append([]Distribution(nil), moved.Distributions...)
	moved.Distributions[0].pairsKey++
	if _, err := CompareSeparation(bow, &moved); err == nil || !strings.Contains(err.Error(), "not the same sets") {
		t.Errorf("another fingerprint: %v", err)
	}
	fewer := append([]data.Utterance(nil), real[:len(real)*3/4]...)
	if _, err := CompareSeparation(bow, score(bowEncoder{}, cfg, fewer)); err == nil || !strings.Contains(err.Error(), "not the same sets") {
		t.Errorf("other data: %v", err)
	}
}

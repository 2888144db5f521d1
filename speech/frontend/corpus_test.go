package frontend

import (
	"context"
	"github.com/roleprint/roleprint/speech"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestProfileCorpus(t *testing.T) {
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "../testdata"
	var calls int
	cfg.Progress = func(done, total int) { calls++ }
	profiles, res, err := ProfileCorpus(context.Background(), corpusFixture(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 8 || calls == 0 {
		t.Fatalf("%d results (want 8: the row without audio is left out), %d progress calls", len(res), calls)
	}
	if res[7].End != 1.8 || math.Abs(res[7].Features.DurationS-1.6) > 1e-3 {
		t.Errorf("span row: %+v", res[7])
	}
	if len(profiles) != 4 {
		t.Fatalf("%d profiles", len(profiles))
	}
	// The bins must follow the order of the pooled values.
	check := func(name string, get func(speech.Profile) float64, lvl func(speech.Profile) speech.Level) {
		var lo, hi speech.Profile
		for i, p := range profiles {
			if i == 0 || get(p) < get(lo) {
				lo = p
			}
			if i == 0 || get(p) > get(hi) {
				hi = p
			}
		}
		if lvl(lo) != speech.Low || lvl(hi) != speech.High {
			t.Errorf("%s: lowest %s is %v, highest %s is %v", name, lo.Character, lvl(lo), hi.Character, lvl(hi))
		}
	}
	check("pitch", func(p speech.Profile) float64 { return p.F0MeanHz }, func(p speech.Profile) speech.Level { return p.Pitch })
	check("energy", func(p speech.Profile) float64 { return p.IntensityMeanDB }, func(p speech.Profile) speech.Level { return p.Energy })
	check("rate", func(p speech.Profile) float64 { return p.SpeakingRateSylS }, func(p speech.Profile) speech.Level { return p.Rate })
	for _, p := range profiles {
		t.Logf("%s: %s", p.Character, p.Tags())
	}
	tags, err := ProfileTags(context.Background(), corpusFixture(), cfg)
	if err != nil || len(tags) != 4 || !strings.HasPrefix(tags["OPHELIA"], "Pitch: ") {
		t.Errorf("ProfileTags: %v %v", tags, err)
	}
}

func TestCorpusErrors(t *testing.T) {
	utts := corpusFixture()
	utts[3].AudioPath = "espeak/missing.wav"
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "../testdata"
	_, _, err := ProfileCorpus(context.Background(), utts, cfg)
	if err == nil || !strings.Contains(err.Error(), "row 3") || !strings.Contains(err.Error(), "missing.wav") {
		t.Fatalf("missing audio: %v", err)
	}
	cfg.SkipBad = true
	profiles, res, err := ProfileCorpus(context.Background(), utts, cfg)
	if err != nil || len(profiles) != 4 || res[3].Skipped == "" || res[3].Err == nil {
		t.Fatalf("SkipBad: %v, %d profiles, row 3 %+v", err, len(profiles), res[3])
	}
	if _, err := AnalyzeUtterances(context.Background(), utts[8:], cfg, false); err == nil {
		t.Error("no audio at all: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AnalyzeUtterances(ctx, corpusFixture(), cfg, false); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestSelectReferences(t *testing.T) {
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "../testdata"
	refs, err := SelectReferences(context.Background(), corpusFixture(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 4 {
		t.Fatalf("%d references", len(refs))
	}
	for _, r := range refs {
		if r.Clips != 2 || math.IsNaN(r.MeanCosine) || !strings.HasPrefix(filepath.Base(r.Audio), map[string]string{
			"HAMLET": "rate-", "OPHELIA": "voice-en-f2", "GHOST": "voice-enus", "HORATIO": "voice-gb"}[r.Character]) {
			t.Errorf("reference %+v", r)
		}
		if r.EndS <= r.StartS {
			t.Errorf("%s: span [%g, %g]", r.Character, r.StartS, r.EndS)
		}
	}
}

// corpusFixture builds utterances pointing at the committed clips; HORATIO
// speaks two spans of one file.
func corpusFixture() []data.Utterance {
	f := func(x float64) *float64 { return &x }
	u := func(speaker, file string, turn int32) data.Utterance {
		return data.Utterance{Source: "espeak", ConversationID: "c1", Turn: turn, Speaker: speaker,
			Text: "She sells sea shells by the shore.", AudioPath: file}
	}
	utts := []data.Utterance{
		u("HAMLET", "espeak/rate-en-m3-p50-s100.wav", 0),
		u("HAMLET", "espeak/rate-en-m3-p50-s180.wav", 1),
		u("OPHELIA", "espeak/voice-en-f2-p70-a.wav", 2),
		u("OPHELIA", "espeak/voice-en-f2-p70-b.wav", 3),
		u("GHOST", "espeak/voice-enus-m1-p30-a.wav", 4),
		u("GHOST", "espeak/voice-enus-m1-p30-b.wav", 5),
		u("HORATIO", "espeak/voice-gb-klatt-p90-a.wav", 6),
		u("HORATIO", "espeak/voice-gb-klatt-p90-b.wav", 7),
		{Source: "espeak", ConversationID: "c1", Turn: 8, Speaker: "HORATIO", Text: "no audio"},
	}
	utts[7].StartS, utts[7].EndS = f(0.2), f(1.8)
	return utts
}

package frontend

import (
	"context"
	"encoding/json"
	"github.com/roleprint/roleprint/speech"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFeaturesJSONRoundTrip(t *testing.T) {
	in := speech.Features{File: "a.wav", DurationS: 1.5, F0MeanHz: math.NaN(), Syllables: 3, WordsPerS: math.Inf(1)}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out speech.Features
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.File != "a.wav" || out.DurationS != 1.5 || !math.IsNaN(out.F0MeanHz) || out.Syllables != 3 || !math.IsNaN(out.WordsPerS) {
		t.Errorf("round trip: %+v from %s", out, b)
	}
}

// TestCorpusCacheResumes checks that a second run takes its results from
// the cache (a doctored cached value comes back), that a line cut short by
// a crash is ignored and recomputed, and that changed text misses the cache.
func TestCorpusCacheResumes(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "features.jsonl")
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "../testdata"
	cfg.CachePath = cache
	utts := corpusFixture()
	first, err := AnalyzeUtterances(context.Background(), utts, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cache)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d cache lines, want 8", len(lines))
	}
	// Doctor the first entry and cut the last one short.
	var e cacheEntry
	if err := json.Unmarshal([]byte(lines[0]), &e); err != nil {
		t.Fatal(err)
	}
	e.Features.F0MeanHz = 12345
	doctored, _ := json.Marshal(e)
	lines[0] = string(doctored)
	lines[7] = lines[7][:len(lines[7])/2]
	if err := os.WriteFile(cache, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := AnalyzeUtterances(context.Background(), utts, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	doctoredRow := -1
	for i := range second {
		if second[i].Features.F0MeanHz == 12345 {
			doctoredRow = i
			continue
		}
		if second[i].Features.F0MeanHz != first[i].Features.F0MeanHz {
			t.Errorf("row %d: %g after resume, %g before", i, second[i].Features.F0MeanHz, first[i].Features.F0MeanHz)
		}
	}
	if doctoredRow < 0 {
		t.Error("the cached (doctored) value was not used")
	}
	// Changed text: a cache miss, so the real value comes back.
	utts[second[doctoredRow].Row].Text = "Something else entirely."
	third, err := AnalyzeUtterances(context.Background(), utts, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	if third[doctoredRow].Features.F0MeanHz == 12345 {
		t.Error("changed text still hit the cache")
	}
	// Every line written after the cut-short one is whole again.
	b, _ = os.ReadFile(cache)
	var whole int
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if json.Unmarshal([]byte(l), &e) == nil {
			whole++
		}
	}
	if want := 7 + 1 + 1; whole != want { // 7 whole (the doctored one among them), the recomputed row, the changed-text row
		t.Errorf("%d whole cache lines, want %d", whole, want)
	}
}

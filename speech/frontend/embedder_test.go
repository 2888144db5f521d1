package frontend

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/speech"
)

// constEmbedder gives every clip the same vector, so that its results are
// told apart from the MFCC statistics'.
type constEmbedder struct{ calls *int }

func (constEmbedder) Name() string { return "test:const" }

func (c constEmbedder) Embed(*speech.Sound) ([]float64, error) {
	*c.calls++
	return []float64{1, 2, 3}, nil
}

func TestEmbedderReplacesStatisticsAndKeysTheCache(t *testing.T) {
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "../testdata"
	cfg.CachePath = filepath.Join(t.TempDir(), "features.jsonl")
	utts := corpusFixture()
	if _, err := AnalyzeUtterances(context.Background(), utts, cfg, true); err != nil {
		t.Fatal(err)
	}
	// The MFCC statistics' cached embeddings are not reused for a neural
	// embedder: every clip goes through it.
	calls := 0
	cfg.Embedder = constEmbedder{&calls}
	res, err := AnalyzeUtterances(context.Background(), utts, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	embedded := 0
	for _, r := range res {
		if r.Embedding != nil {
			embedded++
			if len(r.Embedding) != 3 || r.Embedding[2] != 3 {
				t.Fatalf("row %d: embedding %v, not the embedder's", r.Row, r.Embedding)
			}
		}
	}
	if embedded == 0 || calls != embedded {
		t.Fatalf("%d clips embedded, embedder called %d times", embedded, calls)
	}
	refs, err := SelectReferences(context.Background(), utts, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		if r.Embedder != "test:const" {
			t.Errorf("%s: reference chosen with %q", r.Character, r.Embedder)
		}
	}
	cfg.Embedder = nil
	refs, err = SelectReferences(context.Background(), utts, cfg)
	if err != nil || len(refs) == 0 || refs[0].Embedder != speech.MFCCStatsName {
		t.Fatalf("MFCC statistics: %v %v", refs, err)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/sv/uselite"
)

func useLiteRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUseLiteUsage(t *testing.T) {
	for _, args := range [][]string{
		{"uselite"}, {"uselite", "frobnicate"}, {"uselite", "bench", "--sentences", "0"},
		{"uselite", "tokenize"}, {"uselite", "tokenize", "a.txt", "--ids"},
	} {
		if code, _, stderr := useLiteRun(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage); stderr %s", args, code, stderr)
		}
	}
}

// requireUseLite skips when `roleprint setup use-lite` has not run.
func requireUseLite(t *testing.T) {
	t.Helper()
	var missing *assets.MissingError
	if _, err := uselite.InstalledDir(); errors.As(err, &missing) {
		t.Skipf("USE-Lite not installed: %v", err)
	}
}

func TestUseLiteTokenizeEmbedBench(t *testing.T) {
	requireUseLite(t)
	in := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(in, []byte("A man is playing a guitar.\nHello, world!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := useLiteRun("uselite", "tokenize", "--ids", in)
	if code != 0 || stdout != "74 337 18 970 11 4338 6\n341 4125 8 311 78\n" {
		t.Fatalf("tokenize --ids: exit %d, %q, %s", code, stdout, stderr)
	}
	code, stdout, stderr = useLiteRun("embed", "--encoder", "use-lite", "--backend", "go,ops_sequential", "--json", in)
	if code != 0 {
		t.Fatalf("embed: exit %d: %s", code, stderr)
	}
	var emb struct {
		Encoder string      `json:"encoder"`
		Dim     int         `json:"dim"`
		Count   int         `json:"count"`
		Vectors [][]float64 `json:"vectors"`
	}
	if err := json.Unmarshal([]byte(stdout), &emb); err != nil {
		t.Fatal(err)
	}
	// TF.js gives -0.022127, -0.048795 for the first two coordinates.
	if emb.Dim != 512 || emb.Count != 2 || math.Abs(emb.Vectors[0][0]+0.022127) > 1e-5 || math.Abs(emb.Vectors[0][1]+0.048795) > 1e-5 {
		t.Errorf("embed output: dim %d count %d first %v", emb.Dim, emb.Count, emb.Vectors[0][:2])
	}
	code, stdout, stderr = useLiteRun("uselite", "bench", "--backend", "go,ops_sequential", "--sentences", "8", "--batch", "8", "--json", in)
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	var bench struct {
		Source string `json:"source"`
		Result struct {
			Sentences          int     `json:"sentences"`
			SentencesPerSecond float64 `json:"sentences_per_second"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &bench); err != nil {
		t.Fatal(err)
	}
	if bench.Source != in || bench.Result.Sentences != 8 || !(bench.Result.SentencesPerSecond > 0) || strings.Count(stdout, "{") < 2 {
		t.Errorf("bench output: %s", stdout)
	}
}

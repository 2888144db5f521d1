package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
)

func TestStatsJSON(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	data.WriteUtterances(a, []data.Utterance{
		{Source: "tbbt", ConversationID: "c1", Speaker: "Sheldon", Text: "Bazinga"},
		{Source: "tbbt", ConversationID: "c1", Speaker: "Penny", Text: "Hi there"},
	})
	data.WriteUtterances(b, []data.Utterance{
		{Source: "shakespeare/hamlet", ConversationID: "1.1", Speaker: "Hamlet", Text: "To be"},
		{Source: "tbbt", ConversationID: "c2", Speaker: "Sheldon", Text: "Knock knock"},
	})
	code, stdout, stderr := runImportCLI(t, "stats", "--json", "--top", "1", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Inputs        []string `json:"inputs"`
		Utterances    int      `json:"utterances"`
		Speakers      int      `json:"speakers"`
		Conversations int      `json:"conversations"`
		TopSpeakers   []struct {
			Speaker    string `json:"speaker"`
			Utterances int    `json:"utterances"`
		} `json:"top_speakers"`
		Datasets []struct {
			Name       string `json:"name"`
			Utterances int    `json:"utterances"`
		} `json:"datasets"`
		Sources []struct {
			Name string `json:"name"`
		} `json:"sources"`
	}
	decodeOneJSON(t, stdout, &got)
	if got.Utterances != 4 || got.Speakers != 3 || got.Conversations != 3 || len(got.Inputs) != 2 {
		t.Errorf("totals %+v", got)
	}
	if len(got.TopSpeakers) != 1 || got.TopSpeakers[0].Speaker != "Sheldon" || got.TopSpeakers[0].Utterances != 2 {
		t.Errorf("top %+v", got.TopSpeakers)
	}
	if len(got.Datasets) != 2 || got.Datasets[1].Name != "tbbt" || got.Datasets[1].Utterances != 3 || len(got.Sources) != 2 {
		t.Errorf("datasets %+v sources %+v", got.Datasets, got.Sources)
	}
}

func TestStatsDefaultCorpus(t *testing.T) {
	code, stdout, stderr := runImportCLI(t, "stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := corpus.DefaultManifest()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "embedded:shakespeare") || !strings.Contains(stdout, "| shakespeare | 37 |") ||
		!strings.Contains(stdout, "shakespeare/hamlet") {
		t.Errorf("stats of the default corpus:\n%.600s", stdout)
	}
	var got struct {
		Utterances int `json:"utterances"`
	}
	code, stdout, _ = runImportCLI(t, "stats", "--json")
	decodeOneJSON(t, stdout, &got)
	if code != 0 || got.Utterances != m.Rows {
		t.Errorf("default corpus: %d utterances, manifest %d", got.Utterances, m.Rows)
	}
}

func TestStatsErrors(t *testing.T) {
	dir := t.TempDir()
	notParquet := filepath.Join(dir, "x.parquet")
	os.WriteFile(notParquet, []byte("speaker,text\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"stats", notParquet}, 1, notParquet},
		{[]string{"stats", filepath.Join(dir, "missing.parquet")}, 1, "missing.parquet"},
		{[]string{"stats", "--top", "0"}, 2, "--top"},
	} {
		code, _, stderr := runImportCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

// TestStatsImportsKeys: every row of `stats --json`'s imports has the same
// keys, for a file with an import record that sets neither columns nor
// windows and for a file without the record, and the record's values.
func TestStatsImportsKeys(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	utts := []data.Utterance{{Source: "tbbt", ConversationID: "c1", Speaker: "Sheldon", Text: "Bazinga"}}
	if err := data.WriteUtterancesInfo(a, utts, &data.ImportInfo{Format: "lines", ConversationRule: "the whole file"}); err != nil {
		t.Fatal(err)
	}
	if err := data.WriteUtterances(b, utts); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runImportCLI(t, "stats", "--json", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Imports []map[string]any `json:"imports"`
	}
	decodeOneJSON(t, stdout, &got)
	want := []string{"columns", "conversation_rule", "file", "format", "scene_lines", "settings"}
	if len(got.Imports) != 2 {
		t.Fatalf("imports %v, want a row per file", got.Imports)
	}
	for _, row := range got.Imports {
		if keys := slices.Sorted(maps.Keys(row)); !slices.Equal(keys, want) {
			t.Errorf("imports row %v: keys %v, want %v", row, keys, want)
		}
	}
	if r := got.Imports[0]; r["format"] != "lines" || r["conversation_rule"] != "the whole file" || r["scene_lines"] != 0.0 {
		t.Errorf("imports[0] %v, want the record", r)
	}
	if r := got.Imports[1]; r["file"] != b || r["format"] != "" {
		t.Errorf("imports[1] %v, want the file and no format", r)
	}
}

package main

import (
	"os"
	"path/filepath"
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

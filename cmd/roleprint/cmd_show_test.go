package main

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func showFixture(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "c.parquet")
	var utts []data.Utterance
	for i := range 30 {
		utts = append(utts, data.Utterance{Source: "tbbt", ConversationID: []string{"c1", "c2"}[i/15], Turn: int32(i % 15),
			Speaker: []string{"Sheldon", "Penny", "Leonard"}[i%3], Text: "line number " + string(rune('a'+i%26))})
	}
	utts[4].Text = "Bazinga, with a comma"
	if err := data.WriteUtterances(p, utts); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestShowTable(t *testing.T) {
	p := showFixture(t)
	code, stdout, stderr := runImportCLI(t, "show", "--n", "3", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "row") || !strings.Contains(lines[1], "Sheldon") ||
		!strings.Contains(lines[4], "3 of 30 rows shown (30 match)") {
		t.Errorf("table:\n%s", stdout)
	}
	code, stdout, _ = runImportCLI(t, "show", "--speaker", "penny", "--conversation", "tbbt/c2", "--grep", "LINE", p)
	if code != 0 || !strings.Contains(stdout, "5 of 30 rows shown (5 match)") || strings.Contains(stdout, "Sheldon") {
		t.Errorf("filtered:\n%s", stdout)
	}
}

func TestShowJSONAndExport(t *testing.T) {
	p := showFixture(t)
	code, stdout, stderr := runImportCLI(t, "show", "--json", "--grep", "bazinga", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Rows, Matched, Shown int
		Utterances           []struct {
			File    string `json:"file"`
			Row     int    `json:"row"`
			Speaker string `json:"speaker"`
			Text    string `json:"text"`
		} `json:"utterances"`
	}
	decodeOneJSON(t, stdout, &got)
	if got.Rows != 30 || got.Matched != 1 || got.Shown != 1 || got.Utterances[0].Row != 4 || got.Utterances[0].Speaker != "Penny" {
		t.Errorf("json %+v", got)
	}
	// CSV export: every row (--n not given), quoted as needed.
	code, stdout, _ = runImportCLI(t, "show", "--format", "csv", p)
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(recs) != 31 || recs[0][6] != "text" || recs[5][6] != "Bazinga, with a comma" {
		t.Errorf("csv export: %v %d rows", err, len(recs))
	}
	code, stdout, _ = runImportCLI(t, "show", "--format", "jsonl", "--n", "2", "--speaker", "Leonard", p)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var u data.Utterance
	if code != 0 || len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &u) != nil || u.Speaker != "Leonard" || u.Turn != 5 {
		t.Errorf("jsonl export:\n%s", stdout)
	}
	for _, args := range [][]string{{"show"}, {"show", "--format", "xml", p}, {"show", "--grep", "(", p}, {"show", "--n", "-1", p}} {
		if code, _, _ := runImportCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := runImportCLI(t, "show", filepath.Join(t.TempDir(), "missing.parquet")); code != 1 || !strings.Contains(stderr, "missing.parquet") {
		t.Errorf("missing file: %d %s", code, stderr)
	}
}

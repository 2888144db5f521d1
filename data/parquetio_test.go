package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleUtterances(n int) []Utterance {
	out := make([]Utterance, n)
	for i := range out {
		out[i] = Utterance{Source: "src", ConversationID: "c" + string(rune('a'+i%3)),
			Turn: int32(i), Speaker: []string{"Ann", "Bob"}[i%2], Text: strings.Repeat("word ", i%7+1)}
	}
	return out
}

func TestUtterancesRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.parquet")
	in := sampleUtterances(10)
	start := 1.5
	in[3].StartS = &start
	in[4].AgentModel, in[4].Role = "gpt", "Ann"
	if err := WriteUtterances(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadUtterances(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("read %d rows, wrote %d", len(out), len(in))
	}
	for i := range in {
		if in[i].Text != out[i].Text || in[i].Speaker != out[i].Speaker || in[i].Turn != out[i].Turn {
			t.Errorf("row %d: got %+v want %+v", i, out[i], in[i])
		}
	}
	if out[3].StartS == nil || *out[3].StartS != 1.5 || out[2].StartS != nil {
		t.Errorf("optional start_s not preserved: %v %v", out[3].StartS, out[2].StartS)
	}
	if !out[4].Generated() || out[4].Role != "Ann" || out[0].Generated() {
		t.Errorf("agent fields not preserved")
	}
}

func TestWriteUtterancesRejectsInvalidRowAndKeepsOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.parquet")
	if err := WriteUtterances(path, sampleUtterances(3)); err != nil {
		t.Fatal(err)
	}
	bad := sampleUtterances(5)
	bad[2].Speaker = ""
	err := WriteUtterances(path, bad)
	if err == nil || !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), "speaker") {
		t.Fatalf("want error naming row 2 and speaker, got %v", err)
	}
	out, err := ReadUtterances(path)
	if err != nil || len(out) != 3 {
		t.Fatalf("old file damaged: %d rows, %v", len(out), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestScanParquetRejectsOtherSchema(t *testing.T) {
	type other struct {
		Name  string `parquet:"name"`
		Score int64  `parquet:"score"`
	}
	path := filepath.Join(t.TempDir(), "o.parquet")
	if err := WriteParquet(path, []other{{"a", 1}}); err != nil {
		t.Fatal(err)
	}
	_, err := ReadUtterances(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "missing columns") ||
		!strings.Contains(err.Error(), "speaker") {
		t.Fatalf("want schema error naming file and missing columns, got %v", err)
	}
}

func TestScanParquetRejectsEmptyAndNonParquet(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.parquet")
	text := filepath.Join(dir, "text.parquet")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(text, []byte("speaker,text\nA,hello\n"), 0o644)
	for _, p := range []string{empty, text, filepath.Join(dir, "missing.parquet")} {
		if _, err := ReadUtterances(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: want error naming the file, got %v", p, err)
		}
	}
}

func TestScanParquetStreamsInBoundedBatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.parquet")
	n := 3*readBatch + 17
	if err := WriteUtterances(path, sampleUtterances(n)); err != nil {
		t.Fatal(err)
	}
	total, maxBatch := 0, 0
	err := ScanUtterances(path, func(b []Utterance) error {
		total += len(b)
		maxBatch = max(maxBatch, len(b))
		return nil
	})
	if err != nil || total != n || maxBatch > readBatch {
		t.Fatalf("total %d (want %d), max batch %d (limit %d), err %v", total, n, maxBatch, readBatch, err)
	}
}

// TestScanParquetRejectsMistypedColumns: a file with every column name of
// the schema but other kinds of values (turn as text, conversation_id as a
// number) fails before any row is read, naming the file, the columns and
// the expected kinds.
func TestScanParquetRejectsMistypedColumns(t *testing.T) {
	type mistyped struct {
		Source         string `parquet:"source"`
		ConversationID int64  `parquet:"conversation_id"`
		Episode        string `parquet:"episode"`
		Scene          string `parquet:"scene"`
		Turn           string `parquet:"turn"`
		Speaker        string `parquet:"speaker"`
		Text           string `parquet:"text"`
	}
	path := filepath.Join(t.TempDir(), "m.parquet")
	if err := WriteParquet(path, []mistyped{{Source: "s", ConversationID: 3, Turn: "7", Speaker: "A", Text: "hi"}}); err != nil {
		t.Fatal(err)
	}
	rows := 0
	err := ScanUtterances(path, func(b []Utterance) error { rows += len(b); return nil })
	for _, want := range []string{path, "conversation_id holds integers, expected text", "turn holds text or bytes, expected integers"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("want an error with %q, got %v", want, err)
		}
	}
	if rows != 0 {
		t.Errorf("%d rows read before the schema error", rows)
	}
}

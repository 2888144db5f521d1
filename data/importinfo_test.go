package data

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// The import record round-trips through the corpus file's footer; a file
// written without one reads as nil, and a record that is not JSON is an
// error naming the file.
func TestImportInfoRoundTrip(t *testing.T) {
	dir := t.TempDir()
	utts := []Utterance{{Source: "s", ConversationID: "film#w1", Speaker: "Luke", Text: "Hi there."}}
	with := filepath.Join(dir, "with.parquet")
	in := &ImportInfo{Format: "lines", Settings: map[string]string{"scene_lines": "16"}, ConversationRule: "windows of 16", SceneLines: 16}
	if err := WriteUtterancesInfo(with, utts, in); err != nil {
		t.Fatal(err)
	}
	got, err := ReadImportInfo(with)
	if err != nil || got == nil || got.SceneLines != 16 || got.Settings["scene_lines"] != "16" || got.ConversationRule != "windows of 16" {
		t.Fatalf("%+v, %v", got, err)
	}
	if back, err := ReadUtterances(with); err != nil || len(back) != 1 || back[0].ConversationID != "film#w1" {
		t.Fatalf("rows %+v, %v", back, err)
	}
	plain := filepath.Join(dir, "plain.parquet")
	if err := WriteUtterances(plain, utts); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadImportInfo(plain); got != nil || err != nil {
		t.Errorf("plain file: %+v, %v; want nil, nil", got, err)
	}
	bad := filepath.Join(dir, "bad.parquet")
	if err := WriteParquet(bad, utts, parquet.KeyValueMetadata(ImportInfoKey, "{not json")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadImportInfo(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad record: %v", err)
	}
	if err := WriteUtterancesInfo(filepath.Join(dir, "x.parquet"), []Utterance{{Source: "s"}}, in); err == nil {
		t.Errorf("an invalid row was written")
	}
}

package importers

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestMixedEncodingRelease copies the properties of the Kaggle Harry
// Potter movie CSVs as downloaded onto the fixture: a UTF-8 BOM before the
// header, UTF-8 lines beside Windows-1252 lines (and both in one line),
// UTF-8 mojibake, and a backup copy of a table in the folder. The folder
// imports whole and every text decodes right.
func TestMixedEncodingRelease(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/hp")); err != nil {
		t.Fatal(err)
	}
	dialogue := "\xef\xbb\xbfDialogue ID,Chapter ID,Place ID,Character ID,Dialogue\r\n" +
		"1,1,8,1,I should\x92ve known.\r\n" + // Windows-1252 apostrophe
		"2,1,8,2,\"Yes, it\u2019s in the water.\u201d\"\r\n" + // UTF-8 quotes
		"3,1,9,3,Caf\xe9 and na\u00efve\r\n" + // both in one line
		"4,1,8,1,S\u00c3\u00a9lithaeine\r\n" // mojibake in the file
	os.WriteFile(filepath.Join(dir, "Dialogue.csv"), []byte(dialogue), 0o644)
	chars, _ := os.ReadFile(filepath.Join(dir, "Characters.csv"))
	os.WriteFile(filepath.Join(dir, "Characters-bak.csv"), chars, 0o644)

	// The folder, and the files as a shell expands "*.csv".
	glob, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, paths := range [][]string{{dir}, glob} {
		res, err := Import(context.Background(), "hp-movies", paths, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, u := range res.Utterances {
			got[u.Text] = true
		}
		for _, w := range []string{"I should\u2019ve known.", "Yes, it\u2019s in the water.\u201d", "Café and naïve", "Sélithaeine"} {
			if !got[w] {
				t.Errorf("%v: no utterance %q in %v", paths, w, got)
			}
		}
		if len(got) != 4 {
			t.Errorf("%v: %d texts: %v", paths, len(got), got)
		}
		if len(paths) > 1 && skippedReasons(res)["Characters-bak.csv"] != "backup copy of Characters.csv" {
			t.Errorf("glob: skipped %v", res.Skipped)
		}
	}
}

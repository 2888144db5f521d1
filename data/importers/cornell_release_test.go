package importers

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The release folder as downloaded: README.txt and raw_script_urls.txt
// beside the corpus files, Latin-1 metadata. Passed whole or as a glob
// (every file named), the extra files are skipped with a reason.
func TestCornellReleaseFolder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"movie_lines.txt", "movie_conversations.txt", "movie_characters_metadata.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", "cornell", f))
		if err != nil {
			t.Fatal(err)
		}
		putFixtureFile(t, filepath.Join(dir, f), b)
	}
	// Latin-1: "é" is the byte 0xE9.
	putFixtureFile(t, filepath.Join(dir, "movie_titles_metadata.txt"), []byte(
		"m0 +++$+++ 10 things i hate about you +++$+++ 1999 +++$+++ 6.90 +++$+++ 62847 +++$+++ ['comedy']\n"+
			"m1 +++$+++ 1492: conqu\xeate of paradise +++$+++ 1992 +++$+++ 6.20 +++$+++ 10421 +++$+++ ['adventure']\n"))
	putFixtureFile(t, filepath.Join(dir, "README.txt"), []byte("Cornell Movie-Dialogs Corpus\r\n\r\nDistributed together with: Danescu-Niculescu-Mizil\xe9\r\n"))
	putFixtureFile(t, filepath.Join(dir, "raw_script_urls.txt"), []byte("m0 +++$+++ 10 things i hate about you +++$+++ http://www.dailyscript.com/scripts/10Things.html\n"))

	entries, _ := os.ReadDir(dir)
	var glob []string
	for _, e := range entries {
		glob = append(glob, filepath.Join(dir, e.Name()))
	}
	for name, paths := range map[string][]string{"folder": {dir}, "glob": glob} {
		res, err := Import(context.Background(), "cornell", paths, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Counts.Utterances != 24 || res.Counts.Files != 4 {
			t.Errorf("%s: counts %+v", name, res.Counts)
		}
		var titles []string
		for _, u := range res.Utterances {
			if !strings.Contains(strings.Join(titles, "|"), u.Episode) {
				titles = append(titles, u.Episode)
			}
		}
		if !strings.Contains(strings.Join(titles, "|"), "1492: conquête of paradise (1992)") {
			t.Errorf("%s: Latin-1 title decoded as %q", name, titles)
		}
		if name == "glob" && (len(res.Skipped) != 2 || !strings.Contains(res.Skipped[0].Reason+res.Skipped[1].Reason, "README")) {
			t.Errorf("glob: skipped %+v", res.Skipped)
		}
	}
}

func putFixtureFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

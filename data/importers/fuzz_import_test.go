package importers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	// Register the role-play formats too: every format is fuzzed.
	_ "github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/importers"
)

// fuzzNames are file names the formats read; each format is given the
// fuzz input under one of the names its Match accepts (chosen by the
// second fuzz argument).
var fuzzNames = []string{"1_1.txt", "AnnoMI-full.csv", "train.csv", "a.json", "0101.html", "hamlet/full.html",
	"session_2/test.txt", "movie_lines.txt", "movie_conversations.txt", "Dialogue.csv", "Characters.csv",
	"role_specific/test.jsonl", "characters/Harry/texts/text_0.txt", "Harry_test_output_dialogue.jsonl",
	"Beethoven_chatgpt_result/x.json", "multiturn_Beethoven_chatgpt_result/x.jsonl", "en_test_set.json", "a.tsv"}

// fuzzFixtures are fixture folders copied beside the input for formats
// whose files are read together.
var fuzzFixtures = map[string]string{"cornell": "testdata/cornell", "hp-movies": "testdata/hp"}

// FuzzImporters runs every registered importer over the fuzz input
// written to a temporary file: none may panic or hang, and an import that
// succeeds yields only valid rows.
func FuzzImporters(f *testing.F) {
	for _, dir := range []string{"testdata/tbbt", "testdata/annomi", "testdata/msc", "testdata/lines", "testdata/friends-json"} {
		entries, _ := os.ReadDir(dir)
		for i, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(b) < 4096 {
				f.Add(b, i)
			}
		}
	}
	// One folder per format, made once; each input overwrites one file.
	root := f.TempDir()
	dirs := map[string]string{}
	for _, format := range importers.Formats() {
		dir := filepath.Join(root, format)
		if fx, ok := fuzzFixtures[format]; ok {
			if err := os.CopyFS(dir, os.DirFS(fx)); err != nil {
				f.Fatal(err)
			}
		} else if err := os.MkdirAll(dir, 0o755); err != nil {
			f.Fatal(err)
		}
		dirs[format] = dir
	}
	f.Fuzz(func(t *testing.T, b []byte, which int) {
		// A hang is reported, with its input, like a crash.
		tm := time.AfterFunc(30*time.Second, func() { panic(fmt.Sprintf("input ran for 30 s: %q", b)) })
		defer tm.Stop()
		for _, format := range importers.Formats() {
			imp, _ := importers.Lookup(format)
			dir := dirs[format]
			if _, ok := fuzzFixtures[format]; ok {
				// Replace one of the fixture's files, read the folder.
				fx := fuzzFixtures[format]
				entries, _ := os.ReadDir(fx)
				for _, e := range entries {
					orig, _ := os.ReadFile(filepath.Join(fx, e.Name()))
					os.WriteFile(filepath.Join(dir, e.Name()), orig, 0o644)
				}
				name := entries[(which%len(entries)+len(entries))%len(entries)].Name()
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
				runFuzzImport(t, format, dir)
				continue
			}
			var names []string
			for _, n := range fuzzNames {
				if imp.Match(filepath.Join(dir, n)) {
					names = append(names, n)
				}
			}
			name := "input.txt"
			if len(names) > 0 {
				name = names[(which%len(names)+len(names))%len(names)]
			}
			input := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(input), 0o755)
			if err := os.WriteFile(input, b, 0o644); err != nil {
				t.Fatal(err)
			}
			runFuzzImport(t, format, input)
		}
	})
}

// runFuzzImport imports path in format; an import that succeeds must
// yield valid rows.
func runFuzzImport(t *testing.T, format, path string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := importers.Import(ctx, format, []string{path}, importers.Options{})
	if err != nil {
		return
	}
	for i := range res.Utterances {
		if verr := res.Utterances[i].Validate(); verr != nil {
			t.Fatalf("%s (%s): row %d invalid: %v", format, path, i, verr)
		}
	}
}

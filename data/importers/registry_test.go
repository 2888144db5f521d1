package importers

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

func TestFormatsRegistered(t *testing.T) {
	got := Formats()
	for _, want := range []string{"annomi", "cornell", "friends-html", "friends-json", "hp-movies", "lines", "meld-csv", "msc",
		"shakespeare-html", "tbbt"} {
		if !slices.Contains(got, want) {
			t.Errorf("format %s not registered (have %v)", want, got)
		}
		imp, _ := Lookup(want)
		if imp.Describe() == "" {
			t.Errorf("%s: empty description", want)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("Formats not sorted: %v", got)
	}
}

func TestRegisterRejectsDuplicatesAndBadNames(t *testing.T) {
	for _, name := range []string{"tbbt", "", "Has Space", "UPPER"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			Register(name, &FileFormat{})
		}()
	}
}

// write creates a file under dir with the given bytes.
func write(t *testing.T, dir, name string, content string) string {
	t.Helper()
	return fsxtest.WriteFile(t, dir, name, content)
}

// wantInputError checks err is an *InputError at file (and line when > 0)
// whose message contains every fragment.
func wantInputError(t *testing.T, err error, file string, line int, fragments ...string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("want *InputError at %s:%d, got %v", file, line, err)
	}
	if ie.File != file || (line > 0 && ie.Line != line) {
		t.Errorf("error at %s:%d, want %s:%d (%v)", ie.File, ie.Line, file, line, err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q lacks %q", err, f)
		}
	}
}

func TestImportBadInput(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	_, err := Import(ctx, "nope", []string{dir}, Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown format "nope"`) || !strings.Contains(err.Error(), "tbbt") {
		t.Errorf("unknown format: %v", err)
	}
	missing := filepath.Join(dir, "missing.txt")
	if _, err := Import(ctx, "tbbt", []string{missing}, Options{}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Import(ctx, "tbbt", nil, Options{}); err == nil {
		t.Errorf("no paths accepted")
	}
	empty := write(t, dir, "empty/1_1.txt", "")
	_, err = Import(ctx, "tbbt", []string{empty}, Options{})
	wantInputError(t, err, empty, 0, "empty file", "expected")

	bad := write(t, dir, "bad/1_2.txt", "Scene: x\nSheldon: ok\nPenny: caf\xe9\n")
	_, err = Import(ctx, "tbbt", []string{bad}, Options{Encoding: "utf-8"})
	wantInputError(t, err, bad, 3, "invalid UTF-8", "--encoding latin-1")
	for _, enc := range []string{"latin-1", ""} {
		res, err := Import(ctx, "tbbt", []string{bad}, Options{Encoding: enc})
		if err != nil || res.Utterances[1].Text != "café" {
			t.Errorf("encoding %q: %v %v", enc, err, res)
		}
	}
	if _, err := Import(ctx, "tbbt", []string{bad}, Options{Encoding: "ebcdic"}); err == nil || !strings.Contains(err.Error(), "unknown encoding") {
		t.Errorf("bad encoding name: %v", err)
	}

	cols := write(t, dir, "cols/train.csv", "Utterance,Who,Dialogue_ID,Season,Episode\nHi,Ross,0,1,1\n")
	_, err = Import(ctx, "meld-csv", []string{cols}, Options{})
	wantInputError(t, err, cols, 1, "missing column(s) Speaker", "Utterance, Who, Dialogue_ID", "expected a MELD CSV")

	quoting := write(t, dir, "q/train.csv", "Utterance,Speaker,Dialogue_ID,Season,Episode\nHi,Ross,0,1,1\n\"Oops,Ross,0,1,1\n")
	_, err = Import(ctx, "meld-csv", []string{quoting}, Options{})
	wantInputError(t, err, quoting, 3, "malformed table")

	row := write(t, dir, "r/train.csv", "Utterance,Speaker,Dialogue_ID,Season,Episode\nHi,Ross,0,1,1\nHo,Joey,x,1,1\n")
	_, err = Import(ctx, "meld-csv", []string{row}, Options{})
	wantInputError(t, err, row, 3, "row 2", "whole numbers")

	badCSVUTF := write(t, dir, "u/train.csv", "Utterance,Speaker,Dialogue_ID,Season,Episode\nHi,Ross,0,1,1\n\"multi\nline caf\xe9\",Ross,0,1,1\n")
	_, err = Import(ctx, "meld-csv", []string{badCSVUTF}, Options{Encoding: "utf-8"})
	wantInputError(t, err, badCSVUTF, 3, "row 2", "Utterance", "invalid UTF-8")

	js := write(t, dir, "j/s.json", "{\"season_id\": \"s01\",\n \"episodes\": [\n {\"episode_id\": 5}]}\n")
	_, err = Import(ctx, "friends-json", []string{js}, Options{})
	wantInputError(t, err, js, 3, "episode_id", "expected")
	js2 := write(t, dir, "j2/s.json", "{\"season_id\": \"s01\",\n \"episodes\": [,]}\n")
	_, err = Import(ctx, "friends-json", []string{js2}, Options{})
	wantInputError(t, err, js2, 2, "invalid JSON")

	msc := write(t, dir, "m/train.txt", `{"dialog": [{"id": "Speaker 1", "text": "hi"}], "metadata": {"initial_data_id": "a"}}`+"\n{oops\n")
	_, err = Import(ctx, "msc", []string{msc}, Options{})
	wantInputError(t, err, msc, 2, "invalid JSON")

	cornellLines := write(t, dir, "c/movie_lines.txt", "L1 +++$+++ u0 +++$+++ m0 +++$+++ A\n")
	cornellConv := write(t, dir, "c/movie_conversations.txt", "u0 +++$+++ u1 +++$+++ m0 +++$+++ ['L1']\n")
	_, err = Import(ctx, "cornell", []string{cornellLines, cornellConv}, Options{})
	wantInputError(t, err, cornellLines, 1, "4 fields, expected 5 fields")

	// A file named explicitly that holds nothing of the format fails.
	prose := write(t, dir, "p/notes.txt", "Just some prose without any speaker lines\n")
	_, err = Import(ctx, "tbbt", []string{prose}, Options{})
	wantInputError(t, err, prose, 0, "no tbbt content")

	// A folder without files of the format fails, naming the folder.
	if _, err := Import(ctx, "friends-json", []string{filepath.Join(dir, "p")}, Options{}); err == nil ||
		!strings.Contains(err.Error(), filepath.Join(dir, "p")) {
		t.Errorf("folder without json: %v", err)
	}
	if _, err := Import(ctx, "tbbt", []string{"testdata/tbbt"}, Options{Params: map[string]string{"x": "1"}}); err == nil ||
		!strings.Contains(err.Error(), "takes no settings") {
		t.Errorf("unknown setting: %v", err)
	}
	if _, err := Import(ctx, "annomi", []string{"testdata/annomi"}, Options{Params: map[string]string{"windw": "1"}}); err == nil ||
		!strings.Contains(err.Error(), "known: window, therapist, stage_column") {
		t.Errorf("unknown annomi setting: %v", err)
	}
}

func TestImportWalksSortsAndDeduplicates(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b/2_1.txt", "Scene: b\nPenny: second\n")
	write(t, dir, "a/1_1.txt", "Scene: a\nSheldon: first\n")
	write(t, dir, ".hidden/3_1.txt", "Scene: h\nAmy: hidden\n")
	write(t, dir, "a/README.md", "Sheldon: not a transcript\n")
	var progress [][2]int
	res, err := Import(context.Background(), "tbbt", []string{dir, filepath.Join(dir, "a", "1_1.txt")},
		Options{Progress: func(d, n int) { progress = append(progress, [2]int{d, n}) }})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, res.Utterances, "s01e01-c01|0|Sheldon|first", "s02e01-c01|0|Penny|second")
	if res.Counts.Files != 2 || len(progress) != 2 || progress[1] != [2]int{2, 2} {
		t.Errorf("files %d progress %v", res.Counts.Files, progress)
	}
}

func TestImportHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Import(ctx, "tbbt", []string{"testdata/tbbt"}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("want context.Canceled, got %v", err)
	}
}

func TestConversationsUniquePerSource(t *testing.T) {
	// Two copies of one episode in different folders: the second is read as
	// duplicate conversations, never merged into the first.
	dir := t.TempDir()
	ep := "Scene: x\nSheldon: one\nLeonard: two\n"
	a := write(t, dir, "a/1_1.txt", ep)
	b := write(t, dir, "b/1_1.txt", ep)
	var notes []string
	res, err := Import(context.Background(), "tbbt", []string{a, b}, Options{Logf: func(f string, args ...any) { notes = append(notes, f) }})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, res.Utterances, "s01e01-c01|0|Sheldon|one", "s01e01-c01|1|Leonard|two")
	checkDropped(t, res.Counts, map[string]int{DropDuplicateConversation: 2})
	if len(notes) != 1 {
		t.Errorf("want one note about the duplicate, got %q", notes)
	}
}

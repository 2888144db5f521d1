package importers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const walkEpisode = "Scene: A flat.\nSheldon: Hello there, Leonard.\nLeonard: Hi, Sheldon.\n"

// skippedReasons maps each skipped file's base name to its reason.
func skippedReasons(res *Result) map[string]string {
	m := map[string]string{}
	for _, s := range res.Skipped {
		m[filepath.Base(s.File)] = s.Reason
	}
	return m
}

func TestImportFollowsSymlinks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	real := write(t, dir, "store/1_1.txt", walkEpisode)
	write(t, dir, "store/more/1_2.txt", strings.ReplaceAll(walkEpisode, "flat", "stairwell"))
	release := filepath.Join(dir, "release")
	os.MkdirAll(release, 0o755)
	if err := os.Symlink(real, filepath.Join(release, "1_1.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	os.Symlink(filepath.Join(dir, "store", "more"), filepath.Join(release, "more"))

	// A link to a file inside a folder, and a link to a folder inside it.
	res, err := Import(ctx, "tbbt", []string{release}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts.Files != 2 || res.Counts.Utterances != 4 {
		t.Errorf("folder with links: %+v", res.Counts)
	}
	// A link to a folder given without a trailing slash.
	link := filepath.Join(dir, "linked")
	os.Symlink(filepath.Join(dir, "store"), link)
	res, err = Import(ctx, "tbbt", []string{link}, Options{})
	if err != nil || res.Counts.Files != 2 {
		t.Fatalf("linked folder: %v %+v", err, res)
	}
	// The same file named directly and through a link is read once.
	res, err = Import(ctx, "tbbt", []string{real, release}, Options{})
	if err != nil || res.Counts.Utterances != 4 {
		t.Errorf("file twice: %v %+v", err, res)
	}
	// A link back up the tree is a loop: an error, not a hang.
	os.Symlink(filepath.Join(dir, "store"), filepath.Join(dir, "store", "more", "up"))
	_, err = Import(ctx, "tbbt", []string{link}, Options{})
	if err == nil || !strings.Contains(err.Error(), "symbolic link loop") {
		t.Errorf("loop: %v", err)
	}
	// A broken link is named.
	broken := filepath.Join(dir, "b")
	os.MkdirAll(broken, 0o755)
	write(t, broken, "1_1.txt", walkEpisode)
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(broken, "1_9.txt"))
	_, err = Import(ctx, "tbbt", []string{broken}, Options{})
	if err == nil || !strings.Contains(err.Error(), "1_9.txt: broken symbolic link") {
		t.Errorf("broken link: %v", err)
	}
}

func TestImportSkipsFilesThatAreNotData(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, dir, "r/1_1.txt", walkEpisode)
	write(t, dir, "r/README.txt", "This release holds transcripts.\n")
	write(t, dir, "r/LICENSE.txt", "MIT\n")
	write(t, dir, "r/empty.txt", "")
	write(t, dir, "r/1_1-bak.txt", walkEpisode)
	write(t, dir, "r/1_1.txt~", walkEpisode)
	write(t, dir, "r/old.txt.bak", walkEpisode)
	write(t, dir, "r/image.txt", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00")
	// One Latin-1 text among unrelated files: read, found to hold no
	// transcript, and skipped, not an abort.
	write(t, dir, "r/notes.txt", "Notes sur l'\xe9pisode: tourn\xe9 \xe0 Pasadena.\n")
	res, err := Import(ctx, "tbbt", []string{filepath.Join(dir, "r")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := skippedReasons(res)
	want := map[string]string{
		"README.txt": "README", "LICENSE.txt": "licence or project file", "empty.txt": "zero-byte file",
		"1_1-bak.txt": "backup copy of 1_1.txt", "image.txt": "binary data, not text", "notes.txt": "no tbbt content found",
	}
	for name, reason := range want {
		if got[name] != reason {
			t.Errorf("%s: skipped as %q, want %q (all: %v)", name, got[name], reason, got)
		}
	}
	if res.Counts.Files != 1 || res.Counts.Utterances != 2 || res.Counts.SkippedFiles != len(res.Skipped) {
		t.Errorf("counts %+v, skipped %v", res.Counts, res.Skipped)
	}
	// "*.txt~" and "*.bak" do not match the format's extension: never read.
	if _, ok := got["old.txt.bak"]; ok {
		t.Errorf("old.txt.bak listed: %v", got)
	}

	// Named explicitly, the same files are read (and fail as the format
	// sees them).
	_, err = Import(ctx, "tbbt", []string{filepath.Join(dir, "r", "empty.txt")}, Options{})
	wantInputError(t, err, filepath.Join(dir, "r", "empty.txt"), 0, "empty file")
	_, err = Import(ctx, "tbbt", []string{filepath.Join(dir, "r", "image.txt")}, Options{})
	wantInputError(t, err, filepath.Join(dir, "r", "image.txt"), 0, "expected a text file")

	// A folder with nothing but such files says so.
	write(t, dir, "only/README.txt", "hello\n")
	_, err = Import(ctx, "tbbt", []string{filepath.Join(dir, "only")}, Options{})
	if err == nil || !strings.Contains(err.Error(), "README.txt: README") {
		t.Errorf("only a README: %v", err)
	}
}

func TestSkipReason(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"Characters-bak.csv": "backup copy of Characters.csv", "Characters.csv": "", "readme.md": "README", "x_backup.json": "backup copy",
		"COPYING": "licence or project file", "data - Copy.csv": "backup copy", "bakery.csv": "", "notes.txt~": "backup copy",
	}
	for name := range cases {
		write(t, dir, name, "a,b\n")
	}
	for name, want := range cases {
		if got := skipReason(filepath.Join(dir, name), 4); got != want {
			t.Errorf("skipReason(%s) = %q, want %q", name, got, want)
		}
	}
	if got := skipReason(filepath.Join(dir, "Dialogue.csv"), 0); got != "zero-byte file" {
		t.Errorf("zero bytes: %q", got)
	}
	if !slices.Contains([]string{""}, skipReason(write(t, dir, "u16.csv", "a\x00,\x00b\x00\n\x00"), 8)) {
		t.Errorf("UTF-16 text taken for binary")
	}
}

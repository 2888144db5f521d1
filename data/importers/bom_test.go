package importers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

// TestEveryLeadingBOMStripped checks files saved twice by an editor that
// adds a byte-order mark: every leading mark goes, in every encoding
// mode, so detection sees the header and TBBT keeps its first scene.
func TestEveryLeadingBOMStripped(t *testing.T) {
	for _, enc := range []string{Auto, UTF8, Latin1, utf8Unchecked} {
		for _, in := range []string{"\ufeff\ufeff0", "\ufeff\ufeff\ufeff0", "\xff\xfe\xff\xfe0\x00"} {
			text, _, err := decodeText("f", []byte(in), enc)
			if err != nil || text != "0" {
				t.Errorf("%s: decodeText(%q) = %q, %v; want \"0\"", enc, in, text, err)
			}
		}
	}

	dir := t.TempDir()
	table := write(t, dir, "a/mine.csv", "\ufeff\ufeffspeaker,text\nAnn,First line.\nBen,Second line.\n")
	if d, err := Detect([]string{table}); err != nil || d.Format != "lines" {
		t.Errorf("double-BOM table: detected %+v, %v; want lines", d, err)
	}

	src, err := os.ReadFile(filepath.Join("testdata", "tbbt", "1_1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	plain := write(t, dir, "plain/1_1.txt", string(src))
	marked := write(t, dir, "marked/1_1.txt", "\ufeff\ufeff"+string(src))
	if d, err := Detect([]string{marked}); err != nil || d.Format != "tbbt" {
		t.Errorf("double-BOM TBBT episode: detected %+v, %v; want tbbt", d, err)
	}
	want, err := Import(context.Background(), "tbbt", []string{plain}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Import(context.Background(), "tbbt", []string{marked}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Utterances) != len(want.Utterances) {
		t.Fatalf("double-BOM TBBT episode: %d utterances, want %d", len(got.Utterances), len(want.Utterances))
	}
	var gotConv, wantConv []string
	for i := range got.Utterances {
		gotConv = append(gotConv, got.Utterances[i].ConversationID)
		wantConv = append(wantConv, want.Utterances[i].ConversationID)
		if got.Utterances[i].Text != want.Utterances[i].Text || got.Utterances[i].Speaker != want.Utterances[i].Speaker {
			t.Errorf("utterance %d: %+v, want %+v", i, got.Utterances[i], want.Utterances[i])
		}
	}
	if !slices.Equal(gotConv, wantConv) {
		t.Errorf("double-BOM TBBT episode: scenes %v, want %v", slices.Compact(gotConv), slices.Compact(wantConv))
	}
}

// TestReadingLayerRefusesDevicesAndFIFOs gives the reading layer what is
// not a regular file: an endless device and a FIFO with no writer (which
// blocks a plain open). Each is an *InputError naming it, at once.
func TestReadingLayerRefusesDevicesAndFIFOs(t *testing.T) {
	for _, p := range []string{"/dev/zero", fsxtest.FIFO(t, "pipe.txt")} {
		err := fsxtest.Within(t, p, func() error { _, err := ReadTextFile(p, ""); return err })
		var ie *InputError
		if !errors.As(err, &ie) || ie.File != p || !strings.Contains(err.Error(), "expected a regular file") {
			t.Errorf("%s: %v, want an *InputError naming it", p, err)
		}
		if _, err := Detect([]string{p}); err == nil {
			t.Errorf("Detect(%s) succeeded", p)
		}
	}
}

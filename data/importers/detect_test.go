package importers

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetectFromContent(t *testing.T) {
	dir := t.TempDir()
	// Names that say nothing: the content decides.
	cases := map[string]struct{ content, want string }{
		"a/data.csv":        {"transcript_id,mi_quality,utterance_id,interlocutor,utterance_text\n1,high,0,client,Hi\n", "annomi"},
		"b/data.csv":        {"Sr No.,Utterance,Speaker,Emotion,Dialogue_ID,Utterance_ID,Season,Episode\n1,Hi,Ross,joy,0,0,1,1\n", "meld-csv"},
		"c/movie_lines.txt": {"L1 +++$+++ u0 +++$+++ m0 +++$+++ BIANCA +++$+++ They do not!\n", "cornell"},
		"d/x.txt":           {"Scene: A flat.\nSheldon: Hi.\nLeonard: Hello.\nSheldon: Bye.\n", "tbbt"},
		"e/x.txt":           {`{"dialog": [{"id": "Speaker 1", "text": "hi"}], "metadata": {"initial_data_id": "a"}}` + "\n", "msc"},
		"f/mine.tsv":        {"speaker\ttext\nAnn\tHello.\n", "lines"},
		"g/page.html":       {"<html><body><p>[Scene: Central Perk]</p><p><b>Ross:</b> Hi.</p><p><b>Joey:</b> Hey.</p><p><b>Ross:</b> Bye.</p></body></html>", "friends-html"},
	}
	for name, c := range cases {
		p := write(t, dir, name, c.content)
		d, err := Detect([]string{filepath.Dir(p)})
		if err != nil || d.Format != c.want || d.Reason == "" {
			t.Errorf("%s: detected %+v, %v; want %s", name, d, err, c.want)
		}
	}
	// A UTF-16 table is recognised too.
	p := filepath.Join(dir, "u16.csv")
	os.WriteFile(p, encodeUTF16("transcript_id,utterance_id,interlocutor,utterance_text\n1,0,client,Hi\n", binary.LittleEndian, false), 0o644)
	if d, err := Detect([]string{p}); err != nil || d.Format != "annomi" {
		t.Errorf("UTF-16: %+v %v", d, err)
	}
	// Unrecognisable content and a mix of two formats are errors that
	// list what was considered.
	if _, err := Detect([]string{write(t, dir, "z/notes.txt", "just some notes\n")}); err == nil || !strings.Contains(err.Error(), "pass --format") {
		t.Errorf("unknown content: %v", err)
	}
	_, err := Detect([]string{filepath.Join(dir, "a"), filepath.Join(dir, "c")})
	if err == nil || !strings.Contains(err.Error(), "candidates: ") || !strings.Contains(err.Error(), "annomi (") || !strings.Contains(err.Error(), "cornell (") {
		t.Errorf("two formats: %v", err)
	}
}

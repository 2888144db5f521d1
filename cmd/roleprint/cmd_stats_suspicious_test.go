package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/roleprint/roleprint/data"
)

func TestStatsReportsSuspiciousContent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.parquet")
	data.WriteUtterances(p, []data.Utterance{
		{Source: "hp", ConversationID: "1", Speaker: "Harry", Text: "Fine."},
		{Source: "hp", ConversationID: "1", Speaker: "Students", Text: "SÃ©lithaeine"},
		{Source: "msc", ConversationID: "2", Speaker: "50997", Text: "hello \ufffd"},
	})
	code, stdout, stderr := runImportCLI(t, "stats", "--json", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Suspicious struct {
			Total    int `json:"total"`
			Mojibake struct {
				Rows     int `json:"rows"`
				Examples []struct {
					File string `json:"file"`
					Row  int    `json:"row"`
				} `json:"examples"`
			} `json:"mojibake"`
			ReplacementChar struct {
				Rows int `json:"rows"`
			} `json:"replacement_char"`
			IDSpeakers struct {
				Speakers int `json:"speakers"`
			} `json:"id_speakers"`
			GroupSpeakers struct {
				Speakers int `json:"speakers"`
			} `json:"group_speakers"`
		} `json:"suspicious"`
	}
	decodeOneJSON(t, stdout, &got)
	s := got.Suspicious
	if s.Total != 4 || s.Mojibake.Rows != 1 || s.Mojibake.Examples[0].Row != 1 || s.Mojibake.Examples[0].File != p ||
		s.ReplacementChar.Rows != 1 || s.IDSpeakers.Speakers != 1 || s.GroupSpeakers.Speakers != 1 {
		t.Errorf("suspicious %+v", s)
	}
	code, stdout, _ = runImportCLI(t, "stats", p)
	if code != 0 || !strings.Contains(stdout, "- mojibake: 1 rows") || !strings.Contains(stdout, p+" row 1 (hp, Students)") {
		t.Errorf("text output:\n%s", stdout)
	}
}

// TestStatsCorruptedParquet: a corpus file with one corrupted byte where
// the Parquet library panics is an error naming the file, exit 1.
func TestStatsCorruptedParquet(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join("..", "..", "data", "corpus", "shakespeare.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var bad []byte
	for i := len(orig) - 9; i > len(orig)-4000 && bad == nil; i-- {
		b := bytes.Clone(orig)
		b[i] ^= 0xff
		func() {
			defer func() {
				if recover() != nil {
					bad = b
				}
			}()
			parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		}()
	}
	if bad == nil {
		t.Fatal("no single-byte flip makes parquet-go panic any more; pick another corruption")
	}
	p := filepath.Join(t.TempDir(), "shakespeare.parquet")
	os.WriteFile(p, bad, 0o644)
	code, _, stderr := runImportCLI(t, "stats", p)
	if code != 1 || !strings.Contains(stderr, p) || !strings.Contains(stderr, "corrupted") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

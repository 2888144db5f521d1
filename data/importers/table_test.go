package importers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rTable writes what R's write.table(df) writes for a data frame of
// character and dialogue columns: space-separated, every field quoted,
// quotes inside fields escaped \", row names "1", "2", ... in a first
// column the header does not name. The escaped quote comes after more
// rows than the dialect sniffer samples.
func rTable(rows [][2]string) string {
	var b strings.Builder
	b.WriteString(`"character" "dialogue"` + "\n")
	for i, r := range rows {
		fmt.Fprintf(&b, "%q %q %q\n", fmt.Sprint(i+1), r[0], r[1])
	}
	return b.String()
}

func swRows(n int) [][2]string {
	var rows [][2]string
	for i := range n {
		spk := []string{"LUKE", "HAN", "LEIA", "THREEPIO"}[i%4]
		rows = append(rows, [2]string{spk, fmt.Sprintf("Line %d, said with  two spaces.", i)})
	}
	rows = append(rows, [2]string{"HAN", `What do you mean, "nobody knows"?`})
	return rows
}

func TestLinesRWriteTable(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "scripts/SW_A.txt", rTable(swRows(250)))
	b := write(t, dir, "scripts/SW_B.txt", rTable(swRows(3)))
	write(t, dir, "scripts/README.md", "# Star Wars scripts\n")
	write(t, dir, "scripts/notes.txt", "Transcribed from the films, with some typos, and a few lines missing.\nSee the README.\n")
	opts := Options{Columns: map[string]string{"speaker": "character", "text": "dialogue"}}
	for _, c := range []struct {
		name  string
		paths []string
		opts  Options
		want  int
	}{
		{"folder", []string{filepath.Join(dir, "scripts")}, opts, 251 + 4},
		{"file", []string{a}, opts, 251},
		{"space delimiter", []string{b}, Options{Columns: opts.Columns, Params: map[string]string{"delimiter": " "}}, 4},
		// No --map: the header names no speaker or text column, the
		// content shows which they are.
		{"columns by content", []string{filepath.Join(dir, "scripts")}, Options{}, 251 + 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Import(context.Background(), "lines", c.paths, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Counts.Utterances != c.want {
				t.Fatalf("%d rows, want %d (%+v)", res.Counts.Utterances, c.want, res.Counts)
			}
			u := res.Utterances[0]
			if u.Speaker != "Luke" || u.Text != "Line 0, said with two spaces." || u.ConversationID != stem(c.paths[0]) && !strings.HasPrefix(c.name, "folder") && c.name != "columns by content" {
				t.Errorf("first row %+v", u)
			}
			var last string
			for _, u := range res.Utterances {
				if u.ConversationID == "SW_A" || len(c.paths) == 1 && c.paths[0] != filepath.Join(dir, "scripts") {
					last = u.Text
				}
			}
			if last != `What do you mean, "nobody knows"?` {
				t.Errorf("last row %q: the \\\" escapes are quotes in the text", last)
			}
		})
	}
	// Walking the folder skips the README and reads no prose file.
	res, err := Import(context.Background(), "lines", []string{filepath.Join(dir, "scripts")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 {
		t.Errorf("files %q, want the two tables", res.Files)
	}
}

// Detection proposes the lines format with the columns it guessed and the
// command to run, and never imports on the guess.
func TestDetectProposesLines(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "scripts/SW_A.txt", rTable(swRows(40)))
	d, err := Detect([]string{filepath.Join(dir, "scripts")})
	if err == nil || d == nil || d.Format != "" || d.Proposal == nil {
		t.Fatalf("detected %+v, %v; want a proposal", d, err)
	}
	p := d.Proposal
	if p.Format != "lines" || p.Columns["speaker"] != "character" || p.Columns["text"] != "dialogue" {
		t.Errorf("proposal %+v", p)
	}
	want := "roleprint import --format lines --map speaker=character,text=dialogue --out OUT.parquet " + filepath.Join(dir, "scripts")
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks the command %q", err, want)
	}
	if got := p.Command("my corpus.parquet", []string{"a b.txt"}); got != "roleprint import --format lines --map speaker=character,text=dialogue --out 'my corpus.parquet' 'a b.txt'" {
		t.Errorf("command %q", got)
	}
	// A table whose header names the default columns is taken as is.
	f := write(t, dir, "mine/talk.txt", "\"speaker\";\"text\"\n\"Ann\";\"Hello; you.\"\n\"Bob\";\"Hi \"\"there\"\".\"\n")
	if d, err := Detect([]string{filepath.Dir(f)}); err != nil || d.Format != "lines" {
		t.Errorf("default columns: %+v, %v", d, err)
	}
	res, err := Import(context.Background(), "lines", []string{f}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Utterances[1].Text; got != `Hi "there".` {
		t.Errorf("doubled quotes: %q", got)
	}
}

func TestSniffTable(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // describe(), "" for not a table
	}{
		{"speaker,text\nAnn,\"Hi, you\"\nBob,Yo\n", "separated by comma"},
		{"speaker\ttext\nAnn\tHi, you, there\nBob\tYo, yo\n", "separated by tab"},
		{"\"a\" \"b\"\n\"1\" \"x y\" \"z\"\n\"2\" \"u\" \"v w\"\n", "separated by space, quoted, a row-name column (header one field shorter)"},
		{"speaker|text\nAnn|Hi\nBob|Yo\n", "separated by bar"},
		{"Just prose, with commas, here.\nAnd more prose, in lines.\nAnother line without commas\n", ""},
	} {
		d, err := sniffTable(c.text, 0)
		got := ""
		if err == nil {
			got = d.describe()
		}
		if got != c.want {
			t.Errorf("sniffTable(%q) = %q, %v; want %q", c.text, got, err, c.want)
		}
	}
}

// A row of the wrong width is an error naming file, line, row and what
// was expected.
func TestLinesTableErrors(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Columns: map[string]string{"speaker": "character", "text": "dialogue"}}
	var rows strings.Builder
	rows.WriteString(rTable(swRows(5)))
	rows.WriteString(`"7" "LUKE"` + "\n")
	p := write(t, dir, "bad.txt", rows.String())
	_, err := Import(context.Background(), "lines", []string{p}, opts)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Pos.Line != 8 || !strings.Contains(err.Error(), "row 7 has 2 fields, expected 3") {
		t.Errorf("short row: %v", err)
	}
	// Two long text columns and no short repeated one: no guess.
	p = write(t, dir, "two-texts.csv", "a,b\nOne long line of text here,Another long line of text\nA second long line of text,And one more long line here\n")
	if _, err := Import(context.Background(), "lines", []string{p}, Options{}); err == nil || !strings.Contains(err.Error(), "none looks like one by its content") {
		t.Errorf("no speaker-like column: %v", err)
	}
	p = write(t, dir, "prose.txt", "Some notes, not a table.\nReally just notes\nAnd, more, commas\n")
	_, err = Import(context.Background(), "lines", []string{p}, opts)
	if !errors.As(err, &ie) || ie.Pos.Line != 2 || !strings.Contains(err.Error(), "not a delimited table") {
		t.Errorf("prose: %v (want line 2, the first row of another width)", err)
	}
	if _, err := Import(context.Background(), "lines", []string{p}, Options{Params: map[string]string{"delimiter": "x"}}); err == nil || !strings.Contains(err.Error(), "delimiter") {
		t.Errorf("bad delimiter: %v", err)
	}
	os.Remove(p)
}

// The three Star Wars scripts as R wrote them: imported whole and file by
// file, every row of every file (the one "HAN/PILOT" row dropped as two
// speakers), and proposed by detection.
func TestSharedStarWarsScripts(t *testing.T) {
	dir := sharedCorpus(t, "starwars-scripts")
	opts := Options{Columns: map[string]string{"speaker": "character", "text": "dialogue"}}
	whole := importShared(t, "lines", opts, dir)
	// The command without --map reads the same rows: the columns by
	// their content.
	if guessed := importShared(t, "lines", Options{}, dir); guessed.Counts.Utterances != whole.Counts.Utterances ||
		guessed.Utterances[553].Text != whole.Utterances[553].Text || guessed.Utterances[553].Speaker != whole.Utterances[553].Speaker {
		t.Errorf("without --map: %+v", guessed.Counts)
	}
	want := map[string]int{"SW_EpisodeIV": 1010, "SW_EpisodeV": 839, "SW_EpisodeVI": 674}
	got := map[string]int{}
	for _, u := range whole.Utterances {
		got[u.Source]++
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || whole.Counts.Dropped[DropMultipleSpeakers] != 1 {
		t.Errorf("rows per film %v, dropped %v; want %v and one multiple-speaker row", got, whole.Counts.Dropped, want)
	}
	for name, n := range want {
		res := importShared(t, "lines", Options{}, filepath.Join(dir, name+".txt"))
		if res.Counts.Utterances != n {
			t.Errorf("%s alone: %d rows, want %d", name, res.Counts.Utterances, n)
		}
	}
	// Row 554 of A New Hope quotes with \" escapes; its speaker is
	// THREEPIO.
	u := whole.Utterances[553]
	if u.Speaker != "Threepio" || u.Text != `I'm afraid I'm not quite sure, sir. He says "I found her," and keepsrepeating, "She's here."` {
		t.Errorf("row 554: %+v", u)
	}
	if top := topSpeakers(whole.Utterances, 2); fmt.Sprint(top) != "[Luke Han]" {
		t.Errorf("top speakers %v", top)
	}
	d, err := Detect([]string{dir})
	if err == nil || d.Proposal == nil || fmtColumns(d.Proposal.Columns) != "speaker=character,text=dialogue" {
		t.Errorf("detect: %+v, %v", d, err)
	}
}

// FuzzSniffTable: sniffing and guessing columns never panic, and a
// dialect found parses its own sample.
func FuzzSniffTable(f *testing.F) {
	f.Add(rTable(swRows(5)))
	f.Add("speaker,text\nAnn,\"Hi, \"\"you\"\"\"\nBob,Yo\n")
	f.Add("a\tb\n1\t2\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := sniffTable(s, 0)
		guessLineColumns(s)
		if err != nil {
			return
		}
		if d.Fields < 2 || d.Rows < 1 {
			t.Fatalf("dialect %+v from %q", d, s)
		}
	})
}

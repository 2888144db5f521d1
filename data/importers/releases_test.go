package importers

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// Integration tests on the real public releases in
// ../shared/corpora/releases, each folder passed whole as the
// documentation says (docs/corpora.md); each skips when the release is
// absent.

// releaseDir returns the path of a folder of ../shared/corpora/releases, or
// skips the test.
func releaseDir(t *testing.T, name string) string {
	t.Helper()
	p, ok := data.SharedCorpus(filepath.Join("releases", name))
	if !ok {
		t.Skipf("release %s not present", name)
	}
	return p
}

// mojibakeMarks matches the marks UTF-8 text leaves when it is decoded as
// Windows-1252 or Latin-1: "â€" (curly quotes, dashes), "Ã" or "Â"
// followed by a byte-range character ("Ã©" for é, "Â " for a no-break
// space).
var mojibakeMarks = regexp.MustCompile(`â€|â€™|[ÃÂ][\x{80}-\x{BF}\x{A0}-\x{BF}€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ©®«»]`)

// checkNoMojibake fails for any text or speaker name holding U+FFFD, mojibake
// or a control character, naming the first few.
func checkNoMojibake(t *testing.T, utts []data.Utterance) {
	t.Helper()
	bad := 0
	for i := range utts {
		u := &utts[i]
		for _, s := range []string{u.Text, u.Speaker} {
			if strings.ContainsRune(s, '\uFFFD') || mojibakeMarks.MatchString(s) ||
				strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' }) {
				if bad++; bad <= 5 {
					t.Errorf("suspicious text in %s/%s turn %d (%s): %q", u.Source, u.ConversationID, u.Turn, u.Speaker, s)
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d suspicious texts in all", bad)
	}
}

// speakerCounts returns the distinct speakers of utts.
func speakerCounts(utts []data.Utterance) map[string]int {
	m := map[string]int{}
	for _, u := range utts {
		m[u.Speaker]++
	}
	return m
}

func sortedNames(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestReleaseHPD(t *testing.T) {
	dir := releaseDir(t, "hpd")
	res := importShared(t, "hpd", Options{}, dir)
	c := res.Counts
	// 1,016 dialogue lines: one with an empty name, one said by "Harry and
	// Ron", five with nothing but a name.
	if c.Conversations != 149 || c.Utterances != 1009 || c.Files != 1 {
		t.Errorf("counts %+v: want 149 conversations, 1,009 utterances", c)
	}
	spk := speakerCounts(res.Utterances)
	// 65 labels, less "" and "Harry and Ron", less "Colin" (the file's
	// one longer label starting with it is "Colin Creevey"). Labels stay
	// as the release writes them: no list of known characters renames
	// "Harry" or merges the second spellings "Filth", "Ollivanders",
	// "Lohate" and "Pippi" (data.SpeakerAliases does, building pairs).
	if len(spk) != 62 {
		t.Errorf("%d speakers, want 62: %v", len(spk), sortedNames(spk))
	}
	for name, want := range map[string]int{"Harry": 316, "Ron": 170, "Hermione": 134,
		"Hagrid": 40, "Filch": 7, "Filth": 4, "Ollivander": 5, "Ollivanders": 6, "Colin Creevey": 8, "Weasley": 7} {
		if spk[name] != want {
			t.Errorf("%s: %d lines, want %d", name, spk[name], want)
		}
	}
	for _, gone := range []string{"Colin", "Harry Potter"} {
		if spk[gone] > 0 {
			t.Errorf("label %q present", gone)
		}
	}
	u := res.Utterances[0]
	if u.ConversationID != "Session-1" || u.Episode != "Book1-chapter2" || !strings.HasPrefix(u.Scene, "Mrs. Figg") ||
		u.Speaker != "Petunia" || u.Text != "Bad news, Vernon, Mrs. Figg’s broken her leg. She can’t take him. Now what?" {
		t.Errorf("first row %+v", u)
	}
	checkNoMojibake(t, res.Utterances)
	res = importShared(t, "hpd", Options{Params: map[string]string{"responses": "true"}}, dir)
	if n := res.Counts.Utterances; n != 1009+149 {
		t.Errorf("with responses: %d utterances, want %d", n, 1009+149)
	}
	checkNoMojibake(t, res.Utterances)
}

func TestReleaseMELDDyadic(t *testing.T) {
	dyadic := releaseDir(t, "meld-dyadic")
	meld := filepath.Join(sharedCorpus(t, "friends-meld"), "data", "MELD")
	alone := importShared(t, "meld-csv", Options{}, meld)
	both := importShared(t, "meld-csv", Options{}, dyadic, meld)
	// The 17,702 Dyadic rows all point back to MELD utterances.
	if both.Counts.Utterances != alone.Counts.Utterances || both.Counts.Utterances != 13617 ||
		both.Counts.Dropped[DropDuplicateRow] != 17702 || both.Counts.Conversations != alone.Counts.Conversations {
		t.Errorf("MELD %+v, MELD + Dyadic %+v: want the same 13,617 utterances", alone.Counts, both.Counts)
	}
	d := importShared(t, "meld-csv", Options{}, dyadic)
	// 13,400 distinct MELD utterances behind 17,702 rows.
	if d.Counts.Files != 3 || d.Counts.Dropped[DropDuplicateRow] != 17702-13400 || d.Counts.Utterances > 13400 || d.Counts.Utterances < 13000 {
		t.Errorf("Dyadic alone %+v", d.Counts)
	}
	checkNoMojibake(t, both.Utterances)
	checkNoMojibake(t, d.Utterances)
}

// wholeFolders lists every shared corpus folder an importer of this
// package reads, passed whole as docs/corpora.md documents, with the
// counts measured on it (utterances, conversations, speakers; files read
// and skipped).
var wholeFolders = []struct {
	format, dir                                         string
	utterances, conversations, speakers, files, skipped int
}{
	{"tbbt", "tbbt", 44789, 2442, 347, 202, 0},
	{"friends-html", "friends-fangj-html", 60743, 3115, 749, 229, 0},
	{"friends-json", "friends-emorynlp", 7264, 428, 137, 4, 0},
	{"meld-csv", "friends-meld", 22891, 2256, 415, 6, 0},
	{"annomi", "annomi", 9683, 549, 266, 2, 0},
	{"shakespeare-html", "shakespeare-mit", 30784, 753, 1296, 45, 0},
	{"cornell", "releases/cornell-head", 415, 27, 21, 4, 0},
	{"msc", "releases/msc", 12511, 1002, 1002, 1, 1},
	{"hpd", "releases/hpd", 1009, 149, 62, 1, 0},
	{"meld-csv", "releases/meld-dyadic", 13313, 1309, 285, 3, 0},
}

// Every folder imports whole, with the measured counts, and no text or
// speaker name holds mojibake, U+FFFD or control characters.
func TestReleaseWholeFolders(t *testing.T) {
	for _, w := range wholeFolders {
		t.Run(w.format+"/"+w.dir, func(t *testing.T) {
			dir, ok := data.SharedCorpus(w.dir)
			if !ok {
				t.Skipf("shared corpus %s not present", w.dir)
			}
			res := importShared(t, w.format, Options{}, dir)
			c := res.Counts
			if c.Utterances != w.utterances || c.Conversations != w.conversations || c.Speakers != w.speakers ||
				c.Files != w.files || c.SkippedFiles != w.skipped {
				t.Errorf("counts %+v, want %d utterances, %d conversations, %d speakers, %d files, %d skipped",
					c, w.utterances, w.conversations, w.speakers, w.files, w.skipped)
			}
			checkNoMojibake(t, res.Utterances)
		})
	}
}

package genimport

import (
	"context"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

// Integration tests on the real releases in ../shared/corpora/releases and
// the other shared corpora, each folder passed whole through the
// registered format (as `roleprint import --format F FOLDER` does); each
// skips when its folder is absent.

func importWhole(t *testing.T, format, dir string) *importers.Result {
	t.Helper()
	p, ok := data.SharedCorpus(dir)
	if !ok {
		t.Skipf("shared corpus %s not present", dir)
	}
	res, err := importers.Import(context.Background(), format, []string{p}, importers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %s: %+v", format, dir, res.Counts)
	return res
}

// mojibakeMarks matches what UTF-8 text decoded as Windows-1252 leaves.
var mojibakeMarks = regexp.MustCompile(`â€|[ÃÂ][\x{80}-\x{BF}€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ©®«»]`)

// checkNoMojibake fails for texts and speaker names holding U+FFFD,
// mojibake or control characters.
func checkNoMojibake(t *testing.T, utts []data.Utterance) {
	t.Helper()
	bad := 0
	for i := range utts {
		u := &utts[i]
		for _, s := range []string{u.Text, u.Speaker, u.Role} {
			if strings.ContainsRune(s, '\uFFFD') || mojibakeMarks.MatchString(s) ||
				strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' }) {
				if bad++; bad <= 5 {
					t.Errorf("suspicious text in %s/%s (%s): %q", u.Source, u.ConversationID, u.Speaker, s)
				}
			}
		}
	}
}

func distinct(utts []data.Utterance, field func(*data.Utterance) string) []string {
	m := map[string]bool{}
	for i := range utts {
		m[field(&utts[i])] = true
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestReleaseCharacterLLM(t *testing.T) {
	res := importWhole(t, FormatCharacterLLM, "releases/character-llm")
	c := res.Counts
	// 16 single-turn folders (4 roles × 4 models: 82, 98, 123, 94 replies
	// each) and 2 multi-turn files (250 character turns each; Socrates'
	// has 26 inner monologues, Beethoven's 18 interviewer pieces inside
	// his turns).
	if c.Files != 18 || c.Sources != 18 || c.Utterances != 4*(82+98+123+94)+250+224 ||
		c.Dropped[DropInnerMonologue] != 26 || c.Dropped[DropOtherSpeaker] != 18 {
		t.Errorf("counts %+v", c)
	}
	roles := distinct(res.Utterances, func(u *data.Utterance) string { return u.Speaker })
	// Names as the release gives them, no list of known characters: the
	// multi-turn record's character field names Beethoven's single-turn
	// folders too; Hermonie and Cleopatra, with no multi-turn file here,
	// keep the records' names.
	want := []string{"Cleopatra", "Hermonie", "Ludwig van Beethoven", "Socrates"}
	if strings.Join(roles, "|") != strings.Join(want, "|") {
		t.Errorf("roles %q, want %q", roles, want)
	}
	// Single- and multi-turn rows of one role and model share names.
	models := map[string][]string{}
	for _, u := range res.Utterances {
		kind := "single"
		if strings.Contains(u.Source, "multiturn_") {
			kind = "multi"
		}
		k := u.Role + "/" + u.AgentModel
		if !strings.Contains(strings.Join(models[k], ","), kind) {
			models[k] = append(models[k], kind)
		}
	}
	for _, k := range []string{"Ludwig van Beethoven/chatgpt", "Socrates/sft"} {
		if len(models[k]) != 2 {
			t.Errorf("%s: %v, want single and multi-turn rows", k, models[k])
		}
	}
	for _, u := range res.Utterances {
		if strings.Contains(u.Text, "(thinking)") || strings.Contains(u.Text, "(speaking)") {
			t.Fatalf("action kept: %+v", u)
		}
	}
	checkNoMojibake(t, res.Utterances)
}

func TestReleaseRoleBench(t *testing.T) {
	for _, w := range []struct {
		dir                  string
		files, sources, utts int
		wantSources          []string
	}{
		{"releases/rolebench-zh", 3, 3, 2014, []string{"rolebench/zh/role_specific/rolegpt_baseline",
			"rolebench/zh/role_specific/test", "rolebench/zh/role_specific/train"}},
		{"rolebench", 4, 4, 33014, []string{"rolebench/instruction-generalization/role_specific/rolegpt_baseline",
			"rolebench/instruction-generalization/role_specific/test", "rolebench/role-generalization/general/test",
			"rolebench/role-generalization/role_specific/test"}},
	} {
		t.Run(w.dir, func(t *testing.T) {
			res := importWhole(t, FormatRoleBench, w.dir)
			c := res.Counts
			if c.Files != w.files || c.Sources != w.sources || c.Utterances != w.utts {
				t.Errorf("counts %+v", c)
			}
			src := distinct(res.Utterances, func(u *data.Utterance) string { return u.Source })
			if strings.Join(src, "|") != strings.Join(w.wantSources, "|") {
				t.Errorf("sources %q", src)
			}
			convRoles(t, res.Utterances)
			checkNoMojibake(t, res.Utterances)
		})
	}
}

func TestReleaseChatHaruhi(t *testing.T) {
	zh := importWhole(t, FormatChatHaruhi, "releases/chatharuhi-zh")
	c := zh.Counts
	if c.Files != 176 || c.SkippedFiles != 1 || c.Utterances != 1764 || c.Sources != 5 {
		t.Errorf("chatharuhi-zh counts %+v", c)
	}
	if len(zh.Skipped) != 1 || filepath.Base(zh.Skipped[0].File) != "test.jsonl" {
		t.Errorf("skipped %+v", zh.Skipped)
	}
	// Real and generated lines of Haruhi under the one name the lines use.
	if spk := distinct(zh.Utterances, func(u *data.Utterance) string { return u.Speaker }); strings.Join(spk, "|") != "春日" {
		t.Errorf("speakers %q", spk)
	}
	real := 0
	for _, u := range zh.Utterances {
		if !u.Generated() {
			real++
		}
	}
	if real != 584 {
		t.Errorf("%d real lines of 春日, want 584", real)
	}
	checkNoMojibake(t, zh.Utterances)
	convRoles(t, zh.Utterances)

	// The English corpus still imports as before.
	en := importWhole(t, FormatChatHaruhi, "chatharuhi")
	if c := en.Counts; c.Files != 4107 || c.Utterances != 20328 || c.Speakers != 28 || c.Conversations != 14080 {
		t.Errorf("chatharuhi counts %+v", c)
	}
	checkNoMojibake(t, en.Utterances)
}

func TestReleasePairRecords(t *testing.T) {
	res := importWhole(t, FormatPairRecords, "agc-speaker-verification-examples")
	if c := res.Counts; c.Files != 3 || c.Utterances != 65 || c.Conversations != 5 {
		t.Errorf("counts %+v", c)
	}
	checkNoMojibake(t, res.Utterances)
}

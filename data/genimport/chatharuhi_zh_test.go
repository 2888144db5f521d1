package genimport

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/importers"
)

// Chinese roles as the release has them: pinyin folders, Chinese names in
// the lines, a system prompt naming the role, query-response pairs and
// saved chats beside the dialogues, a JSONL file of another kind and a
// zero-byte file.
func TestReadChatHaruhiChinese(t *testing.T) {
	res, err := importers.Import(context.Background(), FormatChatHaruhi, []string{"testdata/chatharuhi-zh"}, importers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	utts := res.Utterances
	mustValid(t, utts)
	var got []string
	for _, u := range utts {
		got = append(got, u.Source+"|"+u.Speaker+"|"+u.Text)
	}
	want := []string{
		"chatharuhi|春日|对啊",
		"chatharuhi|春日|我对普通的人类没有兴趣，以上。",
		"chatharuhi|李云龙|他娘的，给我冲！", // through the system prompt: no alias for liyunlong
		"chatharuhi/haruhi|春日|哦？Python？那你能不能帮我写一个程序啊？",
		"chatharuhi/haruhi/dialogues|春日|哦，你好。有什么事吗？",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
	for _, u := range utts[3:] {
		if u.Role != "春日" || u.AgentModel != ChatHaruhiModel {
			t.Errorf("generated row %+v", u)
		}
	}
	// The second pair's response copies a real line.
	if res.Counts.Dropped["real-copy"] != 1 || res.Counts.Dropped["other-speaker"] != 2 {
		t.Errorf("dropped %v", res.Counts.Dropped)
	}
	var skipped []string
	for _, s := range res.Skipped {
		skipped = append(skipped, s.File[strings.Index(s.File, "characters/"):]+": "+s.Reason)
	}
	sort.Strings(skipped)
	// The folder walk may skip the zero-byte file before the reader sees
	// it ("zero-byte file"); either way it is listed.
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], "characters/ayaka/dialogues/test.jsonl: ") ||
		!strings.Contains(skipped[0], "empty") && !strings.Contains(skipped[0], "zero-byte") ||
		!strings.HasPrefix(skipped[1], "characters/haruhi/meta.jsonl: not a ChatHaruhi dialogue file") {
		t.Errorf("skipped %q", skipped)
	}
	if res.Counts.Files != 4 || res.Counts.SkippedFiles != 2 {
		t.Errorf("counts %+v", res.Counts)
	}
}

func TestCJKPart(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"春日", "凉宫春日", true},
		{"凉宫春日", "春日", true},
		{"日", "凉宫春日", false}, // one character is too little
		{"阿虚", "凉宫春日", false},
		{"Haruhi", "凉宫春日", false},
	} {
		if got := cjkPart(c.a, c.b); got != c.want {
			t.Errorf("cjkPart(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

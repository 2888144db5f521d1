package genimport

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// writeRole writes a ChatHaruhi character folder below dir: its system
// prompt (none when prompt is "") and one text of `Name:「line」` lines.
func writeRole(t *testing.T, dir, folder, prompt string, lines ...string) {
	t.Helper()
	texts := filepath.Join(dir, "characters", folder, "texts")
	if err := os.MkdirAll(texts, 0o755); err != nil {
		t.Fatal(err)
	}
	if prompt != "" {
		if err := os.WriteFile(filepath.Join(dir, "characters", folder, "system_prompt.txt"), []byte(prompt), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(texts, "scene.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Roles the release does not ship, in its layout: the role of each folder
// comes from what the folder says (its system prompt in the release's
// phrasings, else its most frequent speaker), never from a list of known
// characters.
func TestReadChatHaruhiUnknownRoles(t *testing.T) {
	dir := t.TempDir()
	// A Chinese role named by "扮演" and "cosplay", the lines using part
	// of the name.
	writeRole(t, dir, "lixiaoming", "你正在扮演李小明，你正在cosplay李小明。\n永远记住你正在扮演李小明\n",
		"旁白:小明走进教室。", "小明:「大家好，我来了。」", "老师:「坐下吧。」", "小明:「好的，老师。」")
	// An English role named by "act like X from Y" and "cosplay".
	writeRole(t, dir, "Bob", "I want you to act like Robert Smith from The Cure.\nYou are now cosplay Bob Smith\n",
		"Robert Smith:「Hello there.」", "Simon:「Hi.」", "Bob Smith:「Shall we play?」", "Robert Smith:「Louder.」", "Robert:「Not you, Robert the roadie.」")
	// No system prompt: the most frequent speaker is the role.
	writeRole(t, dir, "wangfang", "",
		"王芳:「今天天气真好。」", "阿强:「是啊。」", "王芳:「我们去公园吧。」")
	// A prompt that names the role otherwise than its lines do, and one
	// that names no role: the same fallback.
	writeRole(t, dir, "chendawen", "你正在扮演陈大文。\n",
		"老板:「早。」", "阿文:「早晨。」", "阿文:「开工。」")
	writeRole(t, dir, "zhanglei", "请用幽默的语气回答问题。\n",
		"小张:「明天见。」", "李华:「好。」", "小张:「别迟到。」", "小张:「我请客。」")

	utts, st, err := ReadChatHaruhi([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, utts)
	var got []string
	for _, u := range utts {
		got = append(got, u.Episode+"|"+u.Speaker+"|"+u.Text)
	}
	want := []string{
		"Bob|Robert Smith|Hello there.",
		"Bob|Robert Smith|Louder.",
		"Bob|Robert Smith|Shall we play?", // "Bob Smith", the form the texts use less, unified
		"chendawen|阿文|早晨。",
		"chendawen|阿文|开工。",
		"lixiaoming|小明|大家好，我来了。",
		"lixiaoming|小明|好的，老师。",
		"wangfang|王芳|今天天气真好。",
		"wangfang|王芳|我们去公园吧。",
		"zhanglei|小张|明天见。",
		"zhanglei|小张|别迟到。",
		"zhanglei|小张|我请客。",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
	// The fallback is said, per folder.
	notes := strings.Join(st.Notes, "\n")
	for _, w := range []string{"wangfang has no system prompt", "王芳 (2 lines)", "zhanglei has no system prompt", "小张 (3 lines)",
		"no speaker of chendawen's texts is named as its system prompt names the role (陈大文)", "阿文 (2 lines)"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes %q lack %q", st.Notes, w)
		}
	}
	if strings.Contains(notes, "lixiaoming") || strings.Contains(notes, "Bob") {
		t.Errorf("notes %q: the prompts of lixiaoming and Bob name their roles", st.Notes)
	}
}

func TestPromptRoles(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   []string
	}{
		{"你正在扮演凉宫春日，你正在cosplay涼宮ハルヒ。\n永远记住你正在扮演凉宫春日", []string{"凉宫春日", "涼宮ハルヒ"}},
		{"I want you to act like Raj Koothrappali from Big Bang Theory.\n", []string{"Raj Koothrappali"}},
		{"I want you to act like Dumbledore from Harry Potter.\nYou are now cosplay Professor Dumbledore\n", []string{"Dumbledore", "Professor Dumbledore"}},
		{"You are now playing Harry Potter.", []string{"Harry Potter"}},
		{"请用幽默的语气回答问题。", nil},
	} {
		if got := promptRoles(c.prompt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("promptRoles(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
}

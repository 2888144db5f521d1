package importers

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// convSizes returns each conversation's utterance count in order of first
// appearance, as "id=n".
func convSizes(utts []data.Utterance) []string {
	var order []string
	n := map[string]int{}
	for _, u := range utts {
		if n[u.ConversationID] == 0 {
			order = append(order, u.ConversationID)
		}
		n[u.ConversationID]++
	}
	var out []string
	for _, id := range order {
		out = append(out, fmt.Sprintf("%s=%d", id, n[id]))
	}
	return out
}

// Windows of N kept utterances cut a file that is one conversation into
// pseudo-scenes: consecutive, whoever speaks, a dropped row (a stage
// direction alone) not counted, turns restarting in each window, the
// last window shorter; without the setting the file stays one
// conversation.
func TestLinesSceneLines(t *testing.T) {
	rows := swRows(40) // 41 rows, the speakers in turn
	rows = slices.Insert(rows, 5, [2]string{"LUKE", "(He runs.)"})
	path := write(t, t.TempDir(), "SW_A.txt", rTable(rows))
	cols := map[string]string{"speaker": "character", "text": "dialogue"}

	whole, err := Import(context.Background(), "lines", []string{path}, Options{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(whole.Utterances)); got != "[SW_A=41]" || whole.Segmentation.SceneLines != 0 {
		t.Errorf("default: %s, %+v; want one conversation of 41", got, whole.Segmentation)
	}

	res, err := Import(context.Background(), "lines", []string{path},
		Options{Columns: cols, Params: map[string]string{"scene_lines": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(res.Utterances)); got != "[SW_A#w1=16 SW_A#w2=16 SW_A#w3=9]" {
		t.Errorf("windows: %s", got)
	}
	if res.Counts.Conversations != 3 || res.Counts.Dropped[DropEmptyText] != 1 {
		t.Errorf("counts %+v", res.Counts)
	}
	// The same rows in the same order; the window of the i-th kept row is
	// i/16+1 and its turn i%16.
	for i, u := range res.Utterances {
		if u.Text != whole.Utterances[i].Text || u.ConversationID != fmt.Sprintf("SW_A#w%d", i/16+1) || int(u.Turn) != i%16 {
			t.Fatalf("row %d: %+v", i, u)
		}
	}
	if s := res.Segmentation; s == nil || s.SceneLines != 16 || s.Scenes != ScenesColumn || !strings.Contains(s.Rule, "windows of 16") {
		t.Errorf("segmentation %+v", s)
	}
}

// Bad scene settings are errors naming the setting and what it takes,
// before any file is read.
func TestLinesSceneSettingErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent.csv")
	for _, c := range []struct{ key, value, want string }{
		{"scene_lines", "x", `scene_lines="x": expected a whole number`},
		{"scene_lines", "1", "scene_lines=1: expected 2 or more"},
		{"scene_lines", "-16", "scene_lines=-16: expected 2 or more"},
		{"scene_lines", "2.5", `scene_lines="2.5"`},
		{"scenes", "acts", `scenes="acts": expected column, headings or blank`},
	} {
		_, err := Import(context.Background(), "lines", []string{missing}, Options{Params: map[string]string{c.key: c.value}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%s: %v; want %q", c.key, c.value, err, c.want)
		}
	}
}

func TestHeadingRow(t *testing.T) {
	for _, c := range []struct {
		speaker, text string
		want          bool
	}{
		{"", "INT. DEATH STAR - CORRIDOR", true},
		{"", "EXT./INT. MILLENNIUM FALCON", true},
		{"", "I/E KITCHEN - NIGHT", true},
		{"", "Scene: Central Perk", true},
		{"", "[Scene: Monica's apartment]", true},
		{"", "SCENE 12", true},
		{"Scene", "The hallway", true},
		{"INT. HANGAR", "", true},
		{"LUKE", "INT. is not a heading when someone says it", false},
		{"", "Scenery changes.", false},
		{"", "Interior shots follow.", false},
		{"", "(They all stare.)", false},
	} {
		if _, got := headingRow(c.speaker, c.text); got != c.want {
			t.Errorf("headingRow(%q, %q) = %v, want %v", c.speaker, c.text, got, c.want)
		}
	}
}

// Scene-heading rows start conversations with scenes=headings (ids #sK,
// the heading as scene metadata, the heading not an utterance); by
// default they change nothing (rows without a speaker are dropped, as
// every importer does) and a note names them. Windows cut each scene.
func TestLinesSceneHeadings(t *testing.T) {
	table := "speaker,text\n" +
		"LUKE,Before any heading.\n" +
		",INT. DEATH STAR - CORRIDOR\n" +
		"HAN,One.\nLEIA,Two.\nHAN,Three.\n" +
		"Scene,The hangar\n" +
		"LUKE,Four.\nTHREEPIO,Five.\n"
	path := write(t, t.TempDir(), "ep.csv", table)
	var notes []string
	logf := func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) }

	def, err := Import(context.Background(), "lines", []string{path}, Options{Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(def.Utterances)); got != "[ep=7]" {
		t.Errorf("default: %s; want one conversation (the Scene row read as a speaker, the other dropped)", got)
	}
	if !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "2 rows look like scene headings") }) {
		t.Errorf("no note on the headings: %q", notes)
	}

	res, err := Import(context.Background(), "lines", []string{path}, Options{Params: map[string]string{"scenes": "headings"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(res.Utterances)); got != "[ep#s0=1 ep#s1=3 ep#s2=2]" {
		t.Errorf("headings: %s", got)
	}
	if u := res.Utterances[1]; u.Scene != "INT. DEATH STAR - CORRIDOR" || u.Turn != 0 {
		t.Errorf("first row of scene 1: %+v", u)
	}
	if u := res.Utterances[5]; u.Scene != "Scene: The hangar" || u.Speaker != "Threepio" {
		t.Errorf("last row: %+v", u)
	}
	if res.Counts.DroppedTotal() != 0 {
		t.Errorf("headings counted as dropped: %v", res.Counts.Dropped)
	}

	both, err := Import(context.Background(), "lines", []string{path},
		Options{Params: map[string]string{"scenes": "headings", "scene_lines": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(both.Utterances)); got != "[ep#s0#w1=1 ep#s1#w1=2 ep#s1#w2=1 ep#s2#w1=2]" {
		t.Errorf("headings and windows: %s", got)
	}
}

// scenes=blank starts a conversation at each blank line (or line of
// spaces) between rows, a line end inside a quoted field not counting.
func TestLinesBlankScenes(t *testing.T) {
	table := "speaker,text\n" +
		"ANN,\"One line,\nand its second line.\"\n" +
		"BOB,Two.\n" +
		"\n" +
		"ANN,Three.\n" +
		"   \n\n" +
		"BOB,Four.\n" +
		"ANN,\"Five, with a blank line inside:\n\nstill five.\"\n" +
		"BOB,Six.\n"
	path := write(t, t.TempDir(), "talk.csv", table)
	def, err := Import(context.Background(), "lines", []string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(def.Utterances)); got != "[talk=6]" {
		t.Errorf("default: %s", got)
	}
	res, err := Import(context.Background(), "lines", []string{path}, Options{Params: map[string]string{"scenes": "blank"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(convSizes(res.Utterances)); got != "[talk#s0=2 talk#s1=1 talk#s2=3]" {
		t.Errorf("blank: %s", got)
	}
}

// The three Star Wars films, each one conversation in its release: with
// windows of 16 lines (the median scene of Friends and TBBT) the main
// characters have several conversations and the paper's filters keep
// their sets, so Hard pairs form; without windows none do.
func TestSharedStarWarsSceneLines(t *testing.T) {
	dir := sharedCorpus(t, "starwars-scripts")
	cols := map[string]string{"speaker": "character", "text": "dialogue"}
	whole := importShared(t, "lines", Options{Columns: cols, Source: "starwars"}, dir)
	win := importShared(t, "lines", Options{Columns: cols, Source: "starwars", Params: map[string]string{"scene_lines": "16"}}, dir)
	if win.Counts.Utterances != whole.Counts.Utterances || win.Counts.Conversations != 64+53+43 {
		t.Errorf("windows: %+v; want every row in 64+53+43 windows", win.Counts)
	}
	if id := win.Utterances[16*11].ConversationID; id != "SW_EpisodeIV#w12" {
		t.Errorf("row %d in %s, want SW_EpisodeIV#w12", 16*11, id)
	}
	convs := map[string]map[string]bool{}
	for _, u := range win.Utterances {
		if convs[u.Speaker] == nil {
			convs[u.Speaker] = map[string]bool{}
		}
		convs[u.Speaker][u.ConversationID] = true
	}
	if len(convs["Luke"]) < 50 || len(convs["Han"]) < 50 {
		t.Errorf("Luke in %d windows, Han in %d", len(convs["Luke"]), len(convs["Han"]))
	}

	cfg := pairs.DefaultPairConfig()
	if _, err := pairs.BuildEvalPairs(whole.Utterances, cfg, []int64{1}); err == nil {
		t.Errorf("one conversation per film formed pairs")
	}
	ep, err := pairs.BuildEvalPairs(win.Utterances, cfg, []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	hard := 0
	for _, s := range ep.Rounds[0].Splits {
		if s.Level == pairs.Hard {
			hard += len(s.Pairs)
		}
	}
	if hard < 100 {
		t.Errorf("%d Hard pairs from %d sets; want 100 or more", hard, len(ep.Sets))
	}
	t.Logf("%d sets, splits %v", len(ep.Sets), func() []string {
		var s []string
		for _, sp := range ep.Rounds[0].Splits {
			s = append(s, fmt.Sprintf("%s:%d", sp.Name(), len(sp.Pairs)))
		}
		return s
	}())
}

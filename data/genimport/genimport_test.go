package genimport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// rowsOf renders the rows that satisfy keep as "speaker|text" lines.
func rowsOf(utts []data.Utterance, keep func(u *data.Utterance) bool) []string {
	var out []string
	for i := range utts {
		if keep == nil || keep(&utts[i]) {
			out = append(out, utts[i].Speaker+"|"+utts[i].Text)
		}
	}
	return out
}

func mustValid(t *testing.T, utts []data.Utterance) {
	t.Helper()
	for i := range utts {
		if err := utts[i].Validate(); err != nil {
			t.Fatalf("row %d %+v: %v", i, utts[i], err)
		}
	}
}

func TestReadRoleBench(t *testing.T) {
	utts, st, err := ReadRoleBench([]string{"testdata/rolebench"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, utts)
	got := rowsOf(utts, nil)
	want := []string{
		"Coriolanus|The people are fickle, and I care not for their voices.",
		"Sheldon Cooper|Well, it is a humorous interjection. Bazinga!",
		"Sheldon Cooper|My spot is the left cushion of the couch.",
		"Sheldon Cooper|Trains are the most efficient form of transport.",
		"Sheldon Cooper|I simply like trains.",
		"Jack Sparrow|Why is the rum always gone?",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
	if utts[0].AgentModel != RoleGPTModel || utts[3].AgentModel != RoleBenchRefModel {
		t.Errorf("models %q %q", utts[0].AgentModel, utts[3].AgentModel)
	}
	if utts[0].Source != "rolebench/instruction-generalization/role_specific/rolegpt_baseline" || utts[0].ConversationID != "L1" {
		t.Errorf("source/conv %q %q", utts[0].Source, utts[0].ConversationID)
	}
	if utts[2].ConversationID != "L4.1" || utts[3].ConversationID != "L1.1" || utts[4].ConversationID != "L1.2" {
		t.Errorf("conversation ids %q %q %q", utts[2].ConversationID, utts[3].ConversationID, utts[4].ConversationID)
	}
	if utts[3].Scene != "script_agnostic" || utts[5].Scene != "script_based" {
		t.Errorf("types %q %q", utts[3].Scene, utts[5].Scene)
	}
	for i := range utts {
		if !IsAgentLine(&utts[i]) {
			t.Errorf("row %d is not an agent line: %+v", i, utts[i])
		}
	}
	if st.Records != 5 || st.Utterances != 6 || st.Dropped["empty"] != 1 || st.Files != 2 {
		t.Errorf("stats %+v", st)
	}

	// Context adds the questions as User rows of the same conversation;
	// AgentModel overrides the file default.
	utts, _, err = ReadRoleBench([]string{"testdata/rolebench/rolebench-eng/instruction-generalization/role_specific/test.jsonl"}, Options{Context: true, AgentModel: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	if len(utts) != 6 || utts[0].Speaker != "User" || utts[0].Text != "Why trains?" || utts[0].ConversationID != utts[1].ConversationID || IsAgentLine(&utts[0]) {
		t.Fatalf("context rows: %+v", utts)
	}
	if utts[1].AgentModel != "mine" || utts[0].Role != "Sheldon Cooper" {
		t.Errorf("override/role: %+v", utts[1])
	}
}

func TestReadRoleBenchErrors(t *testing.T) {
	_, _, err := ReadRoleBench([]string{"testdata/bad_rolebench.jsonl"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "bad_rolebench.jsonl:1") || !strings.Contains(err.Error(), "RoleBench record") {
		t.Fatalf("error %v should name the file, line and the expected record", err)
	}
	_, _, err = ReadRoleBench([]string{"testdata/missing.jsonl"}, Options{})
	if err == nil {
		t.Fatal("missing file accepted")
	}
}

func TestReadChatHaruhi(t *testing.T) {
	utts, st, err := ReadChatHaruhi([]string{"testdata/chatharuhi"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, utts)
	real := rowsOf(utts, func(u *data.Utterance) bool { return !u.Generated() })
	wantReal := []string{
		"Professor McGonagall|Potter, follow me,",
		"Professor McGonagall|That's enough, Mr. Weasley.",
		"Professor McGonagall|Five points from Gryffindor.",
		"Professor McGonagall|Sit down, Mr. Finnigan.", // "McGonagall:" in her folder: one name per role
		"Sheldon|I'm not crazy, my mother had me tested.",
		"Sheldon|Penny. Penny.",
		"Sheldon|Again, time machine.",
	}
	if !reflect.DeepEqual(real, wantReal) {
		t.Fatalf("real rows:\n%q\nwant\n%q", real, wantReal)
	}
	gen := rowsOf(utts, func(u *data.Utterance) bool { return u.Generated() })
	wantGen := []string{
		"Professor McGonagall|Certainly not, Potter. Rules are rules, and I shall not bend them for anyone.",
		"Professor McGonagall|Life is rarely fair, Mr. Potter, but detention is quite certain.",
		"Sheldon|Penny, you are sitting in my spot. It is the only place with the optimal view.",
	}
	if !reflect.DeepEqual(gen, wantGen) {
		t.Fatalf("generated rows:\n%q\nwant\n%q", gen, wantGen)
	}
	for i := range utts {
		u := &utts[i]
		if u.Generated() && (u.AgentModel != ChatHaruhiModel || !IsAgentLine(u)) {
			t.Errorf("generated row %+v", u)
		}
		if !u.Generated() && (u.Role != "" || u.Source != "chatharuhi") {
			t.Errorf("real row %+v", u)
		}
	}
	if utts[1].ConversationID != "McGonagall/text_1" || utts[1].Turn != 2 || utts[1].Episode != "McGonagall" {
		t.Errorf("real row ids: %+v", utts[1])
	}
	if g := utts[len(utts)-1]; g.Source != "chatharuhi/organized_data_b" || g.ConversationID != "mws813_Sheldon_test_output_dialogue:1" {
		t.Errorf("generated ids: %+v", g)
	}
	if st.Dropped["real-copy"] != 2 || st.Dropped["duplicate"] != 1 || st.Dropped["other-speaker"] != 3 {
		t.Errorf("dropped %v", st.Dropped)
	}

	// Keeping copies and every reply; context rows mark the role's earlier
	// turns as context.
	utts, _, err = ReadChatHaruhi([]string{"testdata/chatharuhi"}, Options{KeepRealCopies: true, AllReplies: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rowsOf(utts, func(u *data.Utterance) bool { return u.Generated() })); n != 6 {
		t.Errorf("all replies with copies: %d generated rows, want 6", n)
	}
	utts, _, err = ReadChatHaruhi([]string{"testdata/chatharuhi/kyon_generator/organized_data"}, Options{Context: true})
	if err != nil {
		t.Fatal(err)
	}
	got := rowsOf(utts, nil)
	want := []string{
		"Harry|Professor, can I go to Hogsmeade?",
		"Professor McGonagall|Certainly not, Potter. Rules are rules, and I shall not bend them for anyone.",
		"Ron|But Professor —",
		"Professor McGonagall|That’s enough, Mr. Weasley!",
		"Professor McGonagall (context)|Five points from Gryffindor.",
		"Harry|That's not fair!",
		"Professor McGonagall|Life is rarely fair, Mr. Potter, but detention is quite certain.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("context rows (no real texts, so no copy check):\n%q\nwant\n%q", got, want)
	}
}

func TestReadCharacterLLM(t *testing.T) {
	utts, st, err := ReadCharacterLLM([]string{"testdata/character-llm"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, utts)
	got := rowsOf(utts, nil)
	// The records name him Beethoven, the multi-turn one too: no list of
	// known characters makes him "Ludwig van Beethoven".
	want := []string{
		"Beethoven|Nature, and the struggle of the human soul.",
		"Beethoven|Vienna is noisy, but it is home.",
		"Beethoven|Good evening. Shall we speak of symphonies?",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
	// Actions are never text, with or without brackets.
	for _, u := range utts {
		for _, action := range []string{"gazes", "frowns", "bows", "sits", "laughs", "nods"} {
			if strings.Contains(u.Text, action) {
				t.Errorf("action %q kept: %q", action, u.Text)
			}
		}
	}
	// The folder's model label wins over the record's ("llama-7b-ft"), so
	// single- and multi-turn rows of one model share its name.
	if utts[0].AgentModel != "llama-7b" || utts[2].AgentModel != "llama-7b" {
		t.Errorf("models %q %q", utts[0].AgentModel, utts[2].AgentModel)
	}
	if utts[0].ConversationID != "topics:1" || utts[1].ConversationID != "topics:2" || utts[2].ConversationID != "talks:L1" {
		t.Errorf("conversations %q %q %q", utts[0].ConversationID, utts[1].ConversationID, utts[2].ConversationID)
	}
	// The interviewer's reply in Beethoven's folder is not his, nor is
	// the man's piece inside Beethoven's multi-turn turn.
	if st.Dropped["action-only"] != 2 || st.Dropped["other-speaker"] != 2 {
		t.Errorf("dropped %v", st.Dropped)
	}
	utts, _, err = ReadCharacterLLM([]string{"testdata/character-llm"}, Options{Context: true, AgentModel: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(utts) != 6 || utts[2].Speaker != "User" || utts[4].Speaker != "Man" || utts[5].AgentModel != "x" {
		t.Fatalf("context rows: %q", rowsOf(utts, nil))
	}
}

func TestSplitCharacterLLMFolder(t *testing.T) {
	for _, c := range []struct{ folder, role, wantRole, wantModel string }{
		{"Beethoven_llama-7b_result", "", "Beethoven", "llama-7b"},
		{"multiturn_Martin_Luther_King_gpt-3.5_turbo_result", "Martin Luther King", "Martin_Luther_King", "gpt-3.5_turbo"},
		{"Caesar_result", "", "Caesar", ""},
	} {
		r, m := splitCharacterLLMFolder(c.folder, c.role)
		if r != c.wantRole || m != c.wantModel {
			t.Errorf("%s: %q %q, want %q %q", c.folder, r, m, c.wantRole, c.wantModel)
		}
	}
}

func TestPairRecordsRoundTrip(t *testing.T) {
	recs, err := ReadPairRecords("testdata/pairs/records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[0].AnchorName() != "ANN" || recs[1].PairedName() != "ANN" || recs[2].PairedName() != "BOB" || recs[2].Label != 0 {
		t.Fatalf("records %+v", recs)
	}
	out := filepath.Join(t.TempDir(), "sub", "out.jsonl")
	if err := WritePairRecords(out, recs); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPairRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, recs) {
		t.Fatalf("round trip changed records:\n%+v\n%+v", back, recs)
	}
	// Key names are the paper's.
	b, _ := os.ReadFile(out)
	for _, k := range []string{`"anchor_utterances"`, `"paired_conversation"`, `"anchor_role"`, `"label":0`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("written file lacks %s", k)
		}
	}
	// An invalid record is refused and the earlier file stays.
	bad := append(recs, PairRecord{AnchorUtterances: []string{"a"}, PairedUtterances: []string{"b"}, Label: 2})
	if err := WritePairRecords(out, bad); err == nil || !strings.Contains(err.Error(), "record 4") {
		t.Fatalf("invalid record: %v", err)
	}
	if again, err := ReadPairRecords(out); err != nil || len(again) != 3 {
		t.Fatalf("earlier file damaged: %v %d", err, len(again))
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	sets, pairs := RecordsToPairs(recs, "x")
	if len(pairs) != 3 || len(sets) != 6 || pairs[2].Label != 0 || sets["xr1a"].Speaker != "ANN" || sets["xr3b"].Speaker != "BOB" {
		t.Fatalf("pairs %+v sets %v", pairs, sets)
	}
	// Two records drawn from one conversation share its key.
	if sets["xr1a"].ConversationID != sets["xr3a"].ConversationID || sets["xr1a"].ConversationID == sets["xr1b"].ConversationID {
		t.Errorf("conversation keys %q %q %q", sets["xr1a"].ConversationID, sets["xr3a"].ConversationID, sets["xr1b"].ConversationID)
	}
}

func TestPairRecordErrors(t *testing.T) {
	_, err := ReadPairRecords("testdata/pairs/bad.jsonl")
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") || !strings.Contains(err.Error(), "anchor_utterances is empty") {
		t.Fatalf("error %v", err)
	}
}

func TestReadPairRecordUtterances(t *testing.T) {
	utts, st, err := ReadPairRecordUtterances([]string{"testdata/pairs/records.jsonl"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, utts)
	got := rowsOf(utts, nil)
	want := []string{
		"ANN|Hello there.", "BOB|Hi.", "ANN|How are you?",
		"BOB|Ann?", "ANN|Fine, thanks.",
		"ANN|Hello there.", "ANN|Good day.",
		"BOB|Hi.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
	if st.Dropped["duplicate-conversation"] != 1 || utts[0].Source != "TOY" || utts[5].Source != "pair-records" {
		t.Errorf("stats %+v / sources %q %q", st, utts[0].Source, utts[5].Source)
	}
}

// TestPairRecordsSharedRoundTrip reads the seed paper's own example files
// (simulation, distinction and verification records), writes them back
// and checks that every line keeps exactly its keys and values.
func TestPairRecordsSharedRoundTrip(t *testing.T) {
	dir, ok := data.SharedCorpus("agc-speaker-verification-examples")
	if !ok {
		t.Skip("shared corpus agc-speaker-verification-examples not found")
	}
	for _, name := range []string{"data/output/example.jsonl", "data/simulation.jsonl", "data/distinction.jsonl"} {
		path := filepath.Join(dir, name)
		recs, err := ReadPairRecords(path)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), filepath.Base(name))
		if err := WritePairRecords(out, recs); err != nil {
			t.Fatal(err)
		}
		orig, back := jsonLines(t, path), jsonLines(t, out)
		if len(orig) == 0 || !reflect.DeepEqual(orig, back) {
			t.Errorf("%s: round trip changed the records:\n%v\n%v", name, orig, back)
		}
	}
}

// jsonLines decodes every non-blank line of a JSONL file generically.
func jsonLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	return out
}

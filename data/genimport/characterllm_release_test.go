package genimport

import (
	"reflect"
	"testing"
)

// The release's defect classes: replies as a list of pieces or one piece,
// string topic ids, "(thinking)" pieces, a misspelled role in the folder
// name, and multi-turn turns marked interviewer/character with the name
// inside the pieces.
func TestReadCharacterLLMReleaseShapes(t *testing.T) {
	utts, st, err := ReadCharacterLLM([]string{"testdata/character-llm-release"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, utts)
	got := rowsOf(utts, nil)
	want := []string{
		"Hermione Granger|My name is Hermione, a witch at Hogwarts.",
		"Hermione Granger|I'm Hermione Granger, and I've read every book on the subject.",
		"Hermione Granger|Ancient Runes.",
		"Hermione Granger|It is the best room in the castle.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
	// The full name is the one the multi-turn record states for the
	// folder label Hermonie, given to the single-turn folders of that
	// label too; its pieces say "Hermione", the most frequent name in the
	// turns marked as the character's.
	for _, u := range utts {
		if u.Role != "Hermione Granger" {
			t.Errorf("role %q, want the full name", u.Role)
		}
	}
	// Without the multi-turn file, the release's own spelling.
	single, _, err := ReadCharacterLLM([]string{"testdata/character-llm-release/interview_single"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(single) != 3 || single[0].Speaker != "Hermonie" || single[0].Role != "Hermonie" {
		t.Errorf("single-turn alone: %q", rowsOf(single, nil))
	}
	if utts[1].ConversationID != "2023-00-00-00-00-00:topic-1" || utts[1].AgentModel != "chatgpt" || utts[3].AgentModel != "chatgpt" {
		t.Errorf("conversation %q, models %q %q", utts[1].ConversationID, utts[1].AgentModel, utts[3].AgentModel)
	}
	// Four thinking pieces (two single-turn, two multi-turn), one piece of
	// the interviewer inside a reply.
	if st.Dropped[DropInnerMonologue] != 4 || st.Dropped[DropOtherSpeaker] != 1 || len(st.Dropped) != 2 {
		t.Errorf("dropped %v", st.Dropped)
	}
	utts, _, err = ReadCharacterLLM([]string{"testdata/character-llm-release/interview_turns"}, Options{Context: true})
	if err != nil {
		t.Fatal(err)
	}
	got = rowsOf(utts, nil)
	want = []string{
		"Man|Do you like the library?",
		"Hermione Granger|It is the best room in the castle.",
		"Man|Why?",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("context rows:\n%q\nwant\n%q", got, want)
	}
}

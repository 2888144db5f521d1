package importers

import (
	"path/filepath"
	"strings"
	"testing"
)

// The MSC download as it comes: a worker id in place of "Speaker 1", the
// persona-summary task beside the dialogues.
func TestMSCReleaseShapes(t *testing.T) {
	var notes []string
	res := importFixture(t, "msc", Options{Logf: func(f string, a ...any) { notes = append(notes, f) }}, "msc-release")
	checkRows(t, res.Utterances,
		"test_0/s1|0|speaker-1:test_0|I drive a Jeep.",
		"test_0/s1|1|speaker-2:test_0|I prefer running.",
		"test_0/s2|0|speaker-1:test_0|Did you go out on a run today?",
		"test_0/s2|1|speaker-2:test_0|Yes, five miles.",
		"test_0/s2|2|speaker-1:test_0|Impressive.",
		"test_1/s1|0|speaker-1:test_1|First time.",
		"test_1/s1|1|speaker-2:test_1|Nice to meet you.",
		"test_1/s2|0|speaker-1:test_1|Hello again.",
		"test_1/s2|1|speaker-2:test_1|Hi there.",
	)
	if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].File, "msc_personasummary") || !strings.Contains(res.Skipped[0].Reason, "persona-summary") {
		t.Errorf("skipped %+v", res.Skipped)
	}
	if res.Counts.Files != 1 || res.Counts.Speakers != 4 {
		t.Errorf("counts %+v", res.Counts)
	}
	// A persona-summary file outside its folder is told by its records.
	res2 := importFixture(t, "msc", Options{}, "msc-release/msc_dialogue", "msc-release/msc_personasummary/session_1/test.txt")
	if len(res2.Skipped) != 1 || res2.Counts.Utterances != 9 {
		t.Errorf("persona summary named explicitly: %+v %+v", res2.Skipped, res2.Counts)
	}
	if !mscIsPersonaSummary(filepath.Join("testdata", "msc-release", "msc_personasummary", "session_1", "test.txt")) {
		t.Error("persona summary not recognised")
	}
}

// Sessions repeated by later session files are read once and summed up in
// one note, not one note per conversation.
func TestMSCRepeatsOneNote(t *testing.T) {
	var notes []string
	res := importFixture(t, "msc", Options{Logf: func(f string, a ...any) { notes = append(notes, f) }}, "msc")
	checkDropped(t, res.Counts, map[string]int{DropDuplicateConversation: 6})
	n := 0
	for _, s := range notes {
		if strings.Contains(s, "already read") || strings.Contains(s, "repeated") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d duplicate notes, want 1: %q", n, notes)
	}
}

func TestMSCSpeakerIDs(t *testing.T) {
	got, err := mscSpeakers([]mscTurn{{ID: "Speaker 1"}, {ID: "77"}, {ID: "Speaker 1"}})
	if err != nil || strings.Join(got, ",") != "speaker-1,speaker-2,speaker-1" {
		t.Errorf("middle worker id: %v %v", got, err)
	}
	got, err = mscSpeakers([]mscTurn{{ID: "12"}, {ID: "13"}})
	if err != nil || strings.Join(got, ",") != "speaker-1,speaker-2" {
		t.Errorf("only worker ids: %v %v", got, err)
	}
	if _, err := mscSpeakers([]mscTurn{{ID: "Speaker 1"}, {ID: "bot_1"}}); err == nil || !strings.Contains(err.Error(), `"bot_1"`) {
		t.Errorf("unknown id: %v", err)
	}
}

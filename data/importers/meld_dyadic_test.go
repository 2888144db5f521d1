package importers

import "testing"

// MELD_Dyadic re-uses MELD's utterances under new ids: alone it gives
// MELD's dialogue in MELD's order, each utterance once; with MELD, in any
// order of the paths, nothing is counted twice.
func TestMELDDyadic(t *testing.T) {
	want := []string{
		"train_sent_emo-d0|0|Ross|We need to talk.",
		"train_sent_emo-d0|1|Rachel|About what?",
		"train_sent_emo-d0|2|Joey|Hey guys!",
		"train_sent_emo-d0|3|Ross|Not now, Joey.",
		"train_sent_emo-d0|4|Rachel|Fine.",
	}
	res := importFixture(t, "meld-csv", Options{}, "meld-dyadic/MELD_Dyadic")
	checkRows(t, res.Utterances, want...)
	checkDropped(t, res.Counts, map[string]int{DropDuplicateRow: 1})
	if res.Counts.Files != 1 {
		t.Errorf("files %d", res.Counts.Files)
	}
	for _, paths := range [][]string{{"meld-dyadic"}, {"meld-dyadic/MELD_Dyadic", "meld-dyadic/MELD"}} {
		res := importFixture(t, "meld-csv", Options{}, paths...)
		checkRows(t, res.Utterances, append(want, "train_sent_emo-d1|0|Ross|Pivot!")...)
		checkDropped(t, res.Counts, map[string]int{DropDuplicateRow: 6})
		if res.Counts.Files != 2 || len(res.Skipped) != 0 {
			t.Errorf("%v: files %d, skipped %v", paths, res.Counts.Files, res.Skipped)
		}
	}
}

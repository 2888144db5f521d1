package kernel

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	_ "github.com/roleprint/roleprint/sv/baseline" // the rows of the runs below
)

// tinyRun is a quick Table 2 on the embedded corpus with one cheap row.
var tinyRun = Table2Run{Name: "tiny", QuickEncoders: []string{"liwc"}, QuickMixed: []string{}, QuickEmbedded: true}

// TestPlanTable2AppliesPresetAndRun checks the plan of a quick run: the
// quick preset, the run's rows, and an error for a setting no row has.
func TestPlanTable2AppliesPresetAndRun(t *testing.T) {
	nb, _, _, _ := testNotebook(t, false)
	nb.Quick = true
	run := tinyRun
	p, err := nb.PlanTable2(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if p.Config.Preset != "quick" || p.Config.Rounds != 1 || strings.Join(p.Config.Encoders, ",") != "liwc" || len(p.Config.Mixed) != 0 {
		t.Errorf("plan %+v", p.Config)
	}
	if !p.Config.KeepScores || p.Pairs.MaxTestPairs != 1000 || p.Pairs.UnseenPerDataset != 12 || strings.Join(p.Corpora, ",") != "shakespeare" {
		t.Errorf("keep scores %v, pairs %+v, corpora %v", p.Config.KeepScores, p.Pairs, p.Corpora)
	}
	run.QuickEncoders, run.QuickSet = []string{"tfidf"}, "tfidf.no_such=1"
	if _, err := nb.PlanTable2(context.Background(), run); err == nil {
		t.Error("a setting liwc does not have: no error")
	}
}

// TestRunTable2SharedAcrossNotebooks checks that a second notebook of the
// same output root asking for the same run loads the first one's result
// (with its pair scores) instead of computing it again.
func TestRunTable2SharedAcrossNotebooks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Table 2 on the embedded corpus")
	}
	root := t.TempDir()
	open := func(name string) *Notebook {
		nb, _, _, _ := testNotebook(t, false)
		nb.Dir, nb.Quick = filepath.Join(root, name), true
		return nb
	}
	run := tinyRun
	first, err := open("02-a").RunTable2(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	second, err := open("07-b").RunTable2(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Started.Equal(first.Started) {
		t.Errorf("second notebook recomputed: started %v vs %v", second.Started, first.Started)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "table2", "cache-quick", "tiny-*.json")); len(m) != 1 {
		t.Errorf("cache files %v", m)
	}
	// Quick mode checkpoints apart from the full run, as it caches apart:
	// a full run in the same root must not resume a quick run's rows.
	if m, _ := filepath.Glob(filepath.Join(root, "table2", "checkpoints-quick", "round-1", "liwc.json")); len(m) != 1 {
		t.Errorf("quick checkpoints %v, want round-1/liwc.json under checkpoints-quick", m)
	}
	if _, err := os.Stat(filepath.Join(root, "table2", "checkpoints")); !os.IsNotExist(err) {
		t.Errorf("a quick run wrote the full run's checkpoint folder (stat: %v)", err)
	}
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	if _, _, ok := second.PerRound[0].TestScores(k); !ok {
		t.Error("the cached result lost its pair scores")
	}
}

func TestMatrixTable(t *testing.T) {
	tab := MatrixTable("T", "dim", []string{"a", "b"}, []string{"k = 1", "k = 2"}, [][]float64{{1, 2}, {3, 4}})
	md := tab.Markdown()
	for _, want := range []string{"| dim | k = 1 | k = 2 |", "| a | 1 | 2 |", "| b | 3 | 4 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestCompareFirstPicksTheLabel(t *testing.T) {
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{
		"a": {ID: "a", Speaker: "Sheldon", Texts: []string{"Bazinga!"}},
		"b": {ID: "b", Speaker: "Penny", Texts: []string{"Hi!"}},
	}}
	pairs := []pairs.Pair{{ID: "pos", A: "a", B: "a", Label: 1}, {ID: "neg", A: "a", B: "b", Label: 0}}
	s, err := CompareFirst(c, pairs, 0)
	if err != nil || !strings.Contains(s.Text(80), "neg") {
		t.Errorf("negative: %v\n%s", err, s.Text(80))
	}
	if _, err := CompareFirst(c, pairs[:1], 0); err == nil {
		t.Error("no negative: no error")
	}
}

func TestNotesAndImportAllSkipAbsent(t *testing.T) {
	nb, _, stdout, _ := testNotebook(t, false)
	nb.Notes([]string{"one", "two"})
	if got := stdout.String(); got != "note: one\nnote: two\n" {
		t.Errorf("notes %q", got)
	}
	t.Setenv(data.SharedEnv, t.TempDir()) // no corpora there
	utts, err := nb.ImportAll(context.Background(), corpus.Entry{Name: "nosuch", Format: "tbbt", Dir: "nosuch"})
	if err != nil || len(utts) != 0 {
		t.Errorf("absent corpus: %d utterances, %v", len(utts), err)
	}
}

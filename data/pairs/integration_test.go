package pairs_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
	"github.com/roleprint/roleprint/data/pairs"
)

// realCorpus is one shared corpus and how to import it.
type realCorpus struct {
	name, format, sub string
	opts              importers.Options
}

// importShared imports the shared corpora listed, or skips the test or
// benchmark when ../shared is absent.
func importShared(tb testing.TB, corpora []realCorpus) []data.Utterance {
	tb.Helper()
	var utts []data.Utterance
	for _, rc := range corpora {
		dir, ok := data.SharedCorpus(rc.name)
		if !ok {
			tb.Skipf("shared corpus %s not found (../shared/corpora is absent)", rc.name)
		}
		res, err := importers.Import(context.Background(), rc.format, []string{filepath.Join(dir, rc.sub)}, rc.opts)
		if err != nil {
			tb.Fatalf("import %s: %v", rc.name, err)
		}
		utts = append(utts, res.Utterances...)
	}
	return utts
}

// acceptanceCorpora are the corpora of issue 2's acceptance point.
var acceptanceCorpora = []realCorpus{
	{name: "friends-fangj-html", format: "friends-html", sub: "season"},
	{name: "tbbt", format: "tbbt", sub: "preprocessing/raw_corpus"},
	{name: "shakespeare-mit", format: "shakespeare-html"},
}

// TestPairsRealCorpora builds pairs over Friends (HTML), TBBT and
// Shakespeare, writes them, and then recomputes from the written files
// alone that every split is non-empty and exactly balanced, that no unseen
// or dev speaker occurs in training, that no training set comes from a
// conversation in which an unseen speaker speaks, and that no long line is
// in two sets of one speaker.
func TestPairsRealCorpora(t *testing.T) {
	utts := importShared(t, acceptanceCorpora)
	c := mustBuild(t, utts, pairs.DefaultPairConfig())
	dir := filepath.Join(t.TempDir(), "pairs")
	if err := pairs.WritePairDir(dir, c); err != nil {
		t.Fatal(err)
	}

	// From here on only the files count.
	sets, err := data.ReadParquet[pairs.UtteranceSet](filepath.Join(dir, "sets.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*pairs.UtteranceSet{}
	for i := range sets {
		byID[sets[i].ID] = &sets[i]
	}
	splits := map[string][]pairs.Pair{}
	names := []string{"train", "dev"}
	for _, e := range pairs.Exposures {
		for _, l := range pairs.Levels {
			names = append(names, pairs.TestKey{Exposure: e, Level: l}.String())
		}
	}
	speakersOf := func(pairList []pairs.Pair) map[string]bool {
		m := map[string]bool{}
		for _, p := range pairList {
			m[speakerOf(byID[p.A])], m[speakerOf(byID[p.B])] = true, true
		}
		return m
	}
	for _, name := range names {
		pairList, err := data.ReadParquet[pairs.Pair](filepath.Join(dir, name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		pos := 0
		for _, p := range pairList {
			if byID[p.A] == nil || byID[p.B] == nil {
				t.Fatalf("%s: pair %s refers to a set missing from sets.parquet", name, p.ID)
			}
			if (speakerOf(byID[p.A]) == speakerOf(byID[p.B])) != (p.Label == 1) {
				t.Fatalf("%s: pair %s mislabelled", name, p.ID)
			}
			pos += int(p.Label)
		}
		if len(pairList) == 0 || 2*pos != len(pairList) {
			t.Errorf("%s: %d pairs, %d positive: want a non-empty, exactly balanced split", name, len(pairList), pos)
		}
		splits[name] = pairList
	}
	train := speakersOf(splits["train"])
	unseen := map[string]bool{}
	for _, l := range pairs.Levels {
		for k := range speakersOf(splits[pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: l}.String()]) {
			unseen[k] = true
		}
	}
	dev := speakersOf(splits["dev"])
	if len(unseen) == 0 || len(dev) == 0 {
		t.Fatalf("%d unseen and %d dev speakers", len(unseen), len(dev))
	}
	for k := range unseen {
		if train[k] || dev[k] {
			t.Errorf("unseen speaker %q also in train or dev", k)
		}
	}
	for k := range dev {
		if train[k] {
			t.Errorf("dev speaker %q in train", k)
		}
	}
	held := map[string]bool{}
	for _, u := range utts {
		if unseen[u.Source+"\x00"+u.Speaker+"\x00"+u.AgentModel] {
			held[u.Source+"\x00"+u.ConversationID] = true
		}
	}
	for _, p := range splits["train"] {
		for _, id := range []string{p.A, p.B} {
			if s := byID[id]; held[convOf(s)] {
				t.Fatalf("training set %s is from %s/%s, where an unseen speaker speaks", id, s.Source, s.ConversationID)
			}
		}
	}
	// No long line is in two sets of one speaker (clip shows and season
	// premieres replay earlier scenes; the importers drop the replays), so
	// no test set holds a training set's text.
	where := map[string]string{}
	for _, s := range sets {
		for _, text := range s.Texts {
			if len(strings.Fields(text)) < importers.RepeatMinWords {
				continue
			}
			k := speakerOf(&s) + "\x00" + text
			if other, ok := where[k]; ok && other != s.ID {
				t.Fatalf("sets %s and %s of %s both hold %q", other, s.ID, s.Speaker, text)
			}
			where[k] = s.ID
		}
	}
	var sources []string
	for k := range unseen {
		sources = append(sources, k)
	}
	slices.Sort(sources)
	t.Logf("%d utterances; unseen speakers: %q", len(utts), sources)
	r, err := pairs.ReadPairDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := pairs.PairStats(r)
	t.Logf("Friends HTML + TBBT + Shakespeare, seed 1:\n%s", st.Markdown())
	for _, d := range pairs.PairCorpusInfo(r).Datasets {
		t.Logf("%s: %d speakers, %d candidates, unseen %q, dev %q", d.Name, d.Speakers, d.Candidates, d.Unseen, d.Dev)
	}
}

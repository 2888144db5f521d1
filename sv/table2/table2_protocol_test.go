package table2

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// fitRecorder is a Fitter (bag of words like test-bow) that records the
// texts of every Fit call, so tests can check what the runner fits on.
type fitRecorder struct {
	bowEncoder
}

var fitLog struct {
	sync.Mutex
	texts [][]string // one entry per Fit call
}

func (f *fitRecorder) Fit(ctx context.Context, texts []string) error {
	fitLog.Lock()
	defer fitLog.Unlock()
	fitLog.texts = append(fitLog.texts, slices.Clone(texts))
	return nil
}

// l1Scorer embeds like test-bow but scores pairs with its own similarity
// (minus the L1 distance), which is not the cosine.
type l1Scorer struct {
	bowEncoder
}

func (l *l1Scorer) Score(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += math.Abs(float64(a[i] - b[i]))
	}
	return -d
}

func init() {
	sv.RegisterEncoder("test-fitter", func(o sv.EncoderOptions) (sv.Encoder, error) {
		return &fitRecorder{bowEncoder{name: "test-fitter", calls: &bowCalls}}, nil
	})
	sv.RegisterEncoder("test-l1", func(o sv.EncoderOptions) (sv.Encoder, error) {
		return &l1Scorer{bowEncoder{name: "test-l1", calls: &bowCalls}}, nil
	})
}

// withUnseenSets adds to the Unseen-Unseen Base test two sets of a new
// speaker whose texts occur nowhere else, as held-out speakers' sets do.
func withUnseenSets(src CorpusSource) CorpusSource {
	return func(ctx context.Context, round int, seed int64) (*pairs.PairCorpus, error) {
		c, err := src(ctx, round, seed)
		if err != nil {
			return nil, err
		}
		for _, id := range []string{"unseen-1", "unseen-2"} {
			c.Sets[id] = &pairs.UtteranceSet{ID: id, Speaker: "unseen", Texts: []string{"w9 only-here " + id, "w9 w9 " + id}}
		}
		k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
		c.Tests[k] = append(c.Tests[k], pairs.Pair{ID: "u1", A: "unseen-1", B: "unseen-2", Label: 1})
		return c, nil
	}
}

// TestRunTable2FitsOnTrainingTextsOnly checks that a Fitter sees exactly
// the distinct texts of the sets in the training pairs: never a text that
// only dev or test sets hold.
func TestRunTable2FitsOnTrainingTextsOnly(t *testing.T) {
	fitLog.Lock()
	fitLog.texts = nil
	fitLog.Unlock()
	cfg := testConfig()
	cfg.Encoders = []string{"test-fitter"}
	cfg.Mixed = nil
	cfg.Rounds = 1
	src := withUnseenSets(fixtureSource(0.3))
	if _, err := RunConfig(context.Background(), cfg, src); err != nil {
		t.Fatal(err)
	}
	c, _ := src(context.Background(), 1, cfg.Seed)
	want := map[string]bool{}
	for _, p := range c.Train {
		for _, id := range []string{p.A, p.B} {
			for _, text := range c.Sets[id].Texts {
				want[text] = true
			}
		}
	}
	fitLog.Lock()
	defer fitLog.Unlock()
	if len(fitLog.texts) != 1 {
		t.Fatalf("%d Fit calls, want 1", len(fitLog.texts))
	}
	got := map[string]bool{}
	for _, text := range fitLog.texts[0] {
		if got[text] {
			t.Errorf("text %q given to Fit twice", text)
		}
		got[text] = true
		if !want[text] {
			t.Errorf("Fit saw %q, which no training set holds", text)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Fit saw %d distinct texts, the training sets hold %d", len(got), len(want))
	}
	for _, id := range []string{"unseen-1", "unseen-2"} {
		for _, text := range c.Sets[id].Texts {
			if got[text] {
				t.Errorf("Fit saw the held-out text %q", text)
			}
		}
	}
}

// TestRunTable2DevThresholdAppliedUnchanged checks that ACC and F1 of
// every test set are measured at the threshold chosen on the dev pairs of
// the test set's level alone (DecisionRule), never re-chosen on the test
// pairs.
func TestRunTable2DevThresholdAppliedUnchanged(t *testing.T) {
	for _, crit := range []stats.Criterion{stats.MaxAccuracy, stats.MaxMacroF1} {
		cfg := testConfig()
		cfg.Criterion = crit
		res, err := RunConfig(context.Background(), cfg, fixtureSource(0.45))
		if err != nil {
			t.Fatal(err)
		}
		belowBest, notPooled := 0, 0
		for _, er := range res.PerRound {
			c := fixtureCorpus(er.Seed, 6, 6, 40, 0.45)
			th, _ := stats.BestThreshold(er.scores.Dev, sv.PairLabels(c.Dev), crit)
			if float64(er.Threshold) != th {
				t.Fatalf("%s round %d: threshold %v, the dev pairs give %v", er.Encoder, er.Round, er.Threshold, th)
			}
			for _, k := range allTestKeys() {
				var ls []float64
				var ys []bool
				for i, p := range c.Dev {
					if p.Level == k.Level {
						ls, ys = append(ls, er.scores.Dev[i]), append(ys, p.Label == 1)
					}
				}
				lth, _ := stats.BestThreshold(ls, ys, crit)
				if lth != th {
					notPooled++
				}
				cell := er.Cells[k.String()]
				acc, f1 := stats.AccuracyF1(er.scores.Tests[k.String()], sv.PairLabels(c.Tests[k]), lth)
				if float64(cell.Threshold) != lth || float64(cell.ACC) != acc || float64(cell.F1) != f1 {
					t.Fatalf("%s round %d %s: threshold %v ACC %v F1 %v, want %v %v %v at the %s dev pairs' threshold",
						er.Encoder, er.Round, k, cell.Threshold, cell.ACC, cell.F1, lth, acc, f1, k.Level)
				}
				if cell.ACC < cell.BestACC {
					belowBest++
				}
			}
		}
		// The level's dev threshold differs from the one on all dev pairs
		// somewhere, and is not the test set's best one everywhere (else
		// this test could not tell them apart).
		if notPooled == 0 {
			t.Errorf("%s: every level's dev threshold equals the one on all dev pairs", crit)
		}
		if belowBest == 0 {
			t.Errorf("%s: every cell's ACC equals its best-threshold ACC", crit)
		}
	}
}

// TestMixedRowIsCosineOfConcatenation checks the runner's mixed row
// against the definition — the cosine of the concatenated L2-normalised
// set embeddings (sv.Mixed) — with a part that scores pairs with its own
// similarity: the row must use that part's cosines, not its own scores.
func TestMixedRowIsCosineOfConcatenation(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig()
	cfg.Encoders = []string{"test-noise", "test-l1"}
	cfg.Mixed = []string{"test-noise", "test-l1"}
	cfg.Rounds = 1
	res, err := RunConfig(ctx, cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	var mixed *EncoderRound
	for i := range res.PerRound {
		if res.PerRound[i].Encoder == MixedName {
			mixed = &res.PerRound[i]
		}
	}
	if mixed == nil {
		t.Fatal("no mixed row")
	}
	c := fixtureCorpus(cfg.Seed, 6, 6, 40, 0.3)
	noise, _ := sv.NewEncoder("test-noise", cfg.EncoderOptions("test-noise", cfg.Seed))
	l1, _ := sv.NewEncoder("test-l1", sv.EncoderOptions{})
	m, _ := NewMixed("", noise, l1)
	emb, err := sv.EmbedSets(ctx, m, sv.EvalSets(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(split string, pairList []pairs.Pair, got []float64) {
		for i, p := range pairList {
			if want := stats.Cosine(emb[p.A], emb[p.B]); math.Abs(got[i]-want) > 1e-6 {
				t.Fatalf("%s pair %s: mixed score %v, cosine of the concatenation %v", split, p.ID, got[i], want)
			}
		}
	}
	check("dev", c.Dev, mixed.scores.Dev)
	for _, k := range allTestKeys() {
		check(k.String(), c.Tests[k], mixed.scores.Tests[k.String()])
	}
	// The l1 row itself keeps its own scores.
	for _, er := range res.PerRound {
		if er.Encoder == "test-l1" && er.scores.Dev[0] > 0 {
			t.Errorf("test-l1 row scored %v, want its own (negative) L1 scores", er.scores.Dev[0])
		}
	}
}

// TestCheckpointKeyIncludesFitCap checks that a checkpoint made with one
// cap on the fitting texts is not reused under another: the fit, and so
// the result, differ.
func TestCheckpointKeyIncludesFitCap(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-fitter"}
	cfg.Mixed = nil
	cfg.Rounds = 1
	cfg.CheckpointDir = t.TempDir()
	run := func(fitMax int) *Result {
		t.Helper()
		cfg.FitMaxTexts = fitMax
		res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	run(0)
	if !run(0).PerRound[0].Resumed {
		t.Fatal("same settings: checkpoint not reused")
	}
	if run(5).PerRound[0].Resumed {
		t.Error("fit_max_texts changed from all to 5: the old checkpoint was reused")
	}
}

// seedLog records the seeds encoders were built with.
var seedLog struct {
	sync.Mutex
	seeds []int64
}

func init() {
	sv.RegisterEncoder("test-seed", func(o sv.EncoderOptions) (sv.Encoder, error) {
		seedLog.Lock()
		seedLog.seeds = append(seedLog.seeds, o.Seed)
		seedLog.Unlock()
		return &bowEncoder{name: "test-seed", calls: &bowCalls}, nil
	})
}

// TestRoundsUseTheirOwnSeeds checks that round r builds its pairs and
// its encoders with seed Seed+r−1, and that PairsFrom turns those seeds
// into different speaker splits.
func TestRoundsUseTheirOwnSeeds(t *testing.T) {
	seedLog.Lock()
	seedLog.seeds = nil
	seedLog.Unlock()
	cfg := testConfig()
	cfg.Encoders = []string{"test-seed"}
	cfg.Mixed = nil
	cfg.Rounds = 3
	cfg.Seed = 7
	var sourceSeeds []int64
	src := func(ctx context.Context, round int, seed int64) (*pairs.PairCorpus, error) {
		sourceSeeds = append(sourceSeeds, seed)
		return fixtureCorpus(seed, 6, 6, 40, 0.3), nil
	}
	if _, err := RunConfig(context.Background(), cfg, src); err != nil {
		t.Fatal(err)
	}
	want := []int64{7, 8, 9}
	if !slices.Equal(sourceSeeds, want) || !slices.Equal(seedLog.seeds, want) {
		t.Errorf("pair seeds %v, encoder seeds %v, want %v for both", sourceSeeds, seedLog.seeds, want)
	}

	// PairsFrom: 16 speakers of one show, each with 8 conversations.
	var utts []data.Utterance
	for conv := 0; conv < 64; conv++ {
		for turn := 0; turn < 12; turn++ {
			spk := (conv*2 + turn%2) % 16
			utts = append(utts, data.Utterance{Source: "show", ConversationID: fmt.Sprint("c", conv), Turn: int32(turn),
				Speaker: fmt.Sprint("Speaker", string(rune('A'+spk))), Text: "one two three four five six seven eight nine ten eleven"})
		}
	}
	pc := pairs.DefaultPairConfig()
	pc.UnseenPerDataset, pc.DevPerDataset, pc.AllowEmptySplits = 3, 2, true
	unseen := map[string]bool{}
	for round, seed := range []int64{1, 2, 3} {
		c, err := PairsFrom(utts, pc)(context.Background(), round+1, seed)
		if err != nil {
			t.Fatal(err)
		}
		if c.Seed != seed {
			t.Errorf("round %d: corpus seed %d, want %d", round+1, c.Seed, seed)
		}
		info := pairs.PairCorpusInfo(c)
		unseen[fmt.Sprint(info.Datasets[0].Unseen)] = true
	}
	if len(unseen) < 2 {
		t.Errorf("three seeds drew the same unseen speakers: %v", unseen)
	}
}

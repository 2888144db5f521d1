package table2

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
)

// compareRounds builds rounds of five rows on one test set: "good_ft"
// separates with noise, "weak_ft" less well, "noisy" is near chance,
// "twin" equals "noisy", "anti" reverses "good_ft".
func compareRounds(k pairs.TestKey, n int) []EncoderRound {
	var out []EncoderRound
	for r := 1; r <= 3; r++ {
		rng := rand.New(rand.NewPCG(uint64(r), 9))
		pos := make([]bool, n)
		good, noisy := make([]float64, n), make([]float64, n)
		for i := range pos {
			pos[i] = i%2 == 0
			noisy[i] = rng.Float64()
			good[i] = rng.NormFloat64()
			if pos[i] {
				good[i] += 1.5
			}
		}
		anti, weak := make([]float64, n), make([]float64, n)
		for i := range good {
			anti[i] = -good[i]
			weak[i] = (good[i] + 6*noisy[i]) / 7
		}
		for name, s := range map[string][]float64{"good_ft": good, "noisy": noisy, "twin": noisy, "anti": anti, "weak_ft": weak} {
			er := EncoderRound{Round: r, Encoder: name, Scores: map[string]TestScoreSet{k.String(): {Scores: s, Positive: pos}}}
			er.Cells = map[string]CellMetrics{k.String(): evaluateCell(s, pos, 0)}
			out = append(out, er)
		}
	}
	return out
}

func TestCompareRows(t *testing.T) {
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Harder}
	per := compareRounds(k, 200)
	c, err := CompareRows(per, "good_ft", "noisy", k, 500, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rounds != 3 || c.Pairs != 600 || !(c.AUCDiff > 0.25) || !(c.AUCDiffCI[0] > 0.15 && c.AUCDiffCI[0] < c.AUCDiff && c.AUCDiff < c.AUCDiffCI[1]) || c.ShareNotAbove != 0 {
		t.Errorf("clear win: %+v", c)
	}
	c, err = CompareRows(per, "noisy", "twin", k, 500, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.AUCDiff != 0 || c.AUCDiffCI != (stats.Interval{0, 0}) || c.ShareNotAbove != 1 {
		t.Errorf("identical rows: %+v", c)
	}
	// Few pairs: the same kind of win is far less certain.
	small, err := CompareRows(compareRounds(k, 12), "good_ft", "noisy", k, 500, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if w, ws := small.AUCDiffCI[1]-small.AUCDiffCI[0], c.AUCDiffCI[1]-c.AUCDiffCI[0]; !(w > 0.1) || !(w > ws) {
		t.Errorf("12 pairs a round: interval %v", small.AUCDiffCI)
	}
	if _, err := CompareRows(per, "good_ft", "absent", k, 10, 0.95, 1); err == nil || !strings.Contains(err.Error(), "no round") {
		t.Errorf("absent row: %v", err)
	}
	// A round with a NaN score is left out, as the row's cell leaves it out.
	nan := compareRounds(k, 50)
	for i := range nan {
		if nan[i].Encoder == "noisy" && nan[i].Round == 2 {
			ts := nan[i].Scores[k.String()]
			ts.Scores = append([]float64(nil), ts.Scores...)
			ts.Scores[3] = math.NaN()
			nan[i].Scores[k.String()] = ts
		}
	}
	if c, err := CompareRows(nan, "good_ft", "noisy", k, 100, 0.95, 1); err != nil || c.Rounds != 2 || c.Pairs != 100 || !c.AUCDiff.Defined() || !c.AUCDiffCI.Defined() {
		t.Errorf("NaN round: %+v, %v", c, err)
	}
	bad := compareRounds(k, 20)
	for i := range bad {
		if bad[i].Encoder == "noisy" {
			ts := bad[i].Scores[k.String()]
			ts.Positive = append([]bool(nil), ts.Positive...)
			ts.Positive[0] = !ts.Positive[0]
			bad[i].Scores[k.String()] = ts
		}
	}
	if _, err := CompareRows(bad, "good_ft", "noisy", k, 10, 0.95, 1); err == nil || !strings.Contains(err.Error(), "labels differ") {
		t.Errorf("labels differ: %v", err)
	}
}

func TestFineTunedVsUntuned(t *testing.T) {
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Harder}
	per := compareRounds(k, 100)
	tab := &Result{PerRound: per}
	for _, name := range []string{"anti", "weak_ft", "noisy", "good_ft", "twin"} {
		var rs []EncoderRound
		for _, r := range per {
			if r.Encoder == name {
				rs = append(rs, r)
			}
		}
		tab.Rows = append(tab.Rows, aggregateCell(name, k, rs))
	}
	cs := FineTunedVsUntuned(tab)
	if len(cs) != 1 || cs[0].A != "good_ft" || (cs[0].B != "noisy" && cs[0].B != "twin") || cs[0].Test != k.String() {
		t.Fatalf("comparisons %+v", cs)
	}
	tab.Comparisons = cs
	var md strings.Builder
	tab.writeComparisons(&md)
	if !strings.Contains(md.String(), "| Unseen-Unseen Harder | good_ft |") {
		t.Errorf("report section:\n%s", md.String())
	}
	if !isFineTuned("mixed_ft") || isFineTuned("mixed") || isFineTuned("tfidf") {
		t.Error("isFineTuned")
	}
}

package evaluate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers tfidf, the comparison row
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// evalCorpus writes a synthetic corpus: in each source, convs
// conversations of speakers who each speak 6 lines mixing their own words,
// a vocabulary shared by the corpus (its register) and words common to
// all corpora.
func evalCorpus(seed uint64, corpus string, sources, speakers, convs int, register []string) []data.Utterance {
	all := func(int) []int {
		ks := make([]int, speakers)
		for k := range ks {
			ks[k] = k
		}
		return ks
	}
	return synthCorpus(rand.New(rand.NewPCG(seed, 3)), corpus, sources, speakers, convs, register, all)
}

// synthCorpus writes the synthetic corpora of this package's tests: in
// each source, convs conversations in which the speakers members(c) names
// take 6 turns each, every line 12 words drawn from the speaker's own
// words, the corpus's register and words common to all corpora.
func synthCorpus(rng *rand.Rand, corpus string, sources, speakers, convs int, register []string, members func(c int) []int) []data.Utterance {
	common := strings.Fields("the a and i you is it so well oh to of in that")
	var out []data.Utterance
	for s := range sources {
		src := corpus
		if sources > 1 {
			src = fmt.Sprintf("%s/part%d", corpus, s)
		}
		own := make([][]string, speakers)
		for k := range own {
			for j := range 6 {
				own[k] = append(own[k], fmt.Sprintf("%s%d%s%d", corpus[:2], s, string(rune('a'+k)), j))
			}
		}
		for c := range convs {
			turn := int32(0)
			for range 6 {
				for _, k := range members(c) {
					w := make([]string, 12)
					for j := range w {
						switch rng.IntN(4) {
						case 0:
							w[j] = own[k][rng.IntN(len(own[k]))]
						case 1:
							w[j] = register[rng.IntN(len(register))]
						default:
							w[j] = common[rng.IntN(len(common))]
						}
					}
					out = append(out, data.Utterance{Source: src, ConversationID: fmt.Sprintf("c%02d", c), Turn: turn,
						Speaker: fmt.Sprintf("%s-%d-%d", corpus, s, k), Text: strings.Join(w, " ")})
					turn++
				}
			}
		}
	}
	return out
}

var (
	oldRegister = strings.Fields("thou thee thy hath doth art shall lord sir good")
	newRegister = strings.Fields("okay yeah gonna guys phone cool totally dude laptop internet")
	mixRegister = strings.Fields("job drink smoke doctor stress wife kids work weekend health")
)

// trainDomain is the Domain of a two-source corpus: one source's sets
// are its training sets, the other's its held-out sets.
func trainDomain(t *testing.T, train []data.Utterance) (*verifier.Domain, *pairs.EvalPairs) {
	t.Helper()
	ep, err := pairs.BuildEvalPairs(train, pairs.DefaultPairConfig(), []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	var tr, held []*pairs.UtteranceSet
	for _, s := range ep.Sets {
		if strings.HasSuffix(s.Source, "0") {
			tr = append(tr, s)
		} else {
			held = append(held, s)
		}
	}
	d, err := verifier.FitDomain(tr, held)
	if err != nil {
		t.Fatal(err)
	}
	return d, ep
}

// saveTfidfBundle fits tfidf on a training corpus's texts and saves it
// as a one-part bundle named "bundle" with the corpus's Domain, its
// threshold and calibration from the corpus's Hard pairs.
func saveTfidfBundle(t *testing.T, dir string, train []data.Utterance) {
	t.Helper()
	ctx := context.Background()
	d, ep := trainDomain(t, train)
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var fit []string
	for _, u := range train {
		fit = append(fit, u.Text)
	}
	if err := tf.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	c := &pairs.PairCorpus{Sets: ep.Sets, Dev: ep.Rounds[0].Splits[1].Pairs}
	cos, labels, err := verifier.DevCosines(ctx, tf, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Save(dir, verifier.SaveOptions{Name: "bundle", FitTexts: fit, DevCosines: cos, DevLabels: labels, Domain: d,
		Manifest: map[string]any{"inputs": []map[string]any{{"path": "train.parquet", "sha256": "00ff"}}},
		Parts:    []verifier.SavePart{{Row: "tfidf", Encoder: tf, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
}

// TestEvaluate runs a frozen bundle on two corpora it was not trained on:
// one row per encoder and test set with the JSON keys, the bundle's ACC
// at its own P(same) ≥ 0.5, comparisons on the same pairs, the domain
// check, the report files; and refuses the bundle's own training corpus.
func TestEvaluate(t *testing.T) {
	ctx := context.Background()
	train := evalCorpus(1, "old", 2, 4, 12, oldRegister)
	dir := filepath.Join(t.TempDir(), "verifier")
	saveTfidfBundle(t, dir, train)
	v, err := verifier.Load(ctx, dir, verifier.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if v.Domain == nil || !slices.Equal(v.Domain.CorpusNames(), []string{"old"}) {
		t.Fatalf("domain %+v: want the training corpus", v.Domain)
	}

	// The bundle's own training text is refused, naming the overlap.
	if _, err := Evaluate(ctx, v, train, EvalOptions{Seeds: []int64{1}}.Resolve()); err == nil || !strings.Contains(err.Error(), "the verifier was trained on this text") {
		t.Fatalf("evaluating the training corpus: %v, want a refusal naming the shared texts", err)
	}

	utts := append(evalCorpus(2, "new", 1, 5, 10, newRegister), evalCorpus(3, "mix", 1, 4, 10, mixRegister)...)
	// Options not resolved are refused, naming the field: Evaluate fills
	// in no default while it runs.
	resolved := EvalOptions{Seeds: []int64{1, 2}, Replicates: 200}.Resolve()
	for field, o := range map[string]EvalOptions{
		"Replicates": func() EvalOptions { o := resolved; o.Replicates = 0; return o }(),
		"Confidence": func() EvalOptions { o := resolved; o.Confidence = 0; return o }(),
		"Seeds":      func() EvalOptions { o := resolved; o.Seeds = nil; return o }(),
		"Vs":         func() EvalOptions { o := resolved; o.Vs = nil; return o }(),
		"Pairs":      func() EvalOptions { o := resolved; o.Pairs = nil; return o }(),
		"Adapt":      func() EvalOptions { o := resolved; o.Adapt = ""; return o }(),
	} {
		if _, err := Evaluate(ctx, v, utts, o); err == nil || !strings.Contains(err.Error(), "EvalOptions."+field) {
			t.Fatalf("%s unresolved: %v, want a refusal naming EvalOptions.%s", field, err, field)
		}
	}
	rep, err := Evaluate(ctx, v, utts, resolved)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replicates != 200 || rep.Confidence != table2.CompareConfidence || !slices.Equal(rep.Seeds, []int64{1, 2}) {
		t.Fatalf("report records %d replicates, confidence %g, seeds %v: want the resolved 200, %g, [1 2]", rep.Replicates, rep.Confidence, rep.Seeds, table2.CompareConfidence)
	}
	var cells []string
	for _, r := range rep.Rows {
		cells = append(cells, r.Encoder+"/"+r.Corpus+"-"+r.Level)
		if r.Rounds != 2 || r.Pairs == 0 || !(r.AUCMean >= 0 && r.AUCMean <= 100) || !r.ECE.Defined() || !r.AccMean.Defined() {
			t.Fatalf("row %+v", r)
		}
	}
	want := []string{"bundle/all-base", "tfidf/all-base", "bundle/mix-hard", "tfidf/mix-hard", "bundle/mix-harder", "tfidf/mix-harder",
		"bundle/new-hard", "tfidf/new-hard", "bundle/new-harder", "tfidf/new-harder"}
	if !slices.Equal(cells, want) {
		t.Fatalf("rows %v, want %v", cells, want)
	}
	if len(rep.Comparisons) != 5 || rep.Comparisons[0].A != "bundle" || rep.Comparisons[0].B != "tfidf" || rep.Comparisons[0].Rounds != 2 {
		t.Fatalf("comparisons %+v", rep.Comparisons)
	}
	for _, r := range rep.Rows {
		if (r.Encoder == "bundle") != (r.Rule == RuleBundle) {
			t.Fatalf("row %s/%s-%s rule %q", r.Encoder, r.Corpus, r.Level, r.Rule)
		}
	}
	if len(rep.Domain) != 2 || rep.Domain[0].InDomain || rep.Domain[1].InDomain {
		t.Fatalf("domain %+v: both corpora are of another register than the training corpus", rep.Domain)
	}

	// The bundle's ACC is its own decision, P(same) ≥ 0.5, on each round's pairs.
	ep, err := pairs.BuildEvalPairs(utts, pairs.DefaultPairConfig(), []int64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var accs []float64
	for _, r := range ep.Rounds {
		for _, s := range r.Splits {
			if s.Name() != "new-hard" {
				continue
			}
			var probs []float64
			for _, p := range s.Pairs {
				res, err := v.Verify(ctx, ep.Sets[p.A].Texts, ep.Sets[p.B].Texts)
				if err != nil {
					t.Fatal(err)
				}
				probs = append(probs, res.Probability)
			}
			a, _ := stats.AccuracyF1(probs, sv.PairLabels(s.Pairs), 0.5)
			accs = append(accs, 100*a)
		}
	}
	got := rep.Rows[slices.Index(cells, "bundle/new-hard")].AccMean
	if math.Abs(float64(got)-stats.Mean(accs)) > 1e-9 {
		t.Fatalf("bundle new-hard ACC %v, want %v (its verdicts at P(same) ≥ 0.5)", got, stats.Mean(accs))
	}

	// Report files, and the JSON rows' keys.
	out := t.TempDir()
	if err := rep.WriteFiles(out, map[string]string{"command": "test"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, EvalJSON))
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Rows        []map[string]any `json:"rows"`
		Comparisons []map[string]any `json:"comparisons"`
	}
	if err := json.Unmarshal(b, &j); err != nil || len(j.Rows) != len(rep.Rows) || len(j.Comparisons) != 5 {
		t.Fatalf("eval.json: %v", err)
	}
	for _, k := range []string{"encoder", "corpus", "level", "auc_mean", "auc_std", "acc_mean", "f1_mean", "eer_mean", "ece", "pairs"} {
		if _, ok := j.Rows[0][k]; !ok {
			t.Fatalf("eval.json row without %q: %v", k, j.Rows[0])
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, EvalMarkdown))
	if !bytes.Contains(md, []byte("| bundle | new | hard |")) || !bytes.Contains(md, []byte("Paired bootstrap")) {
		t.Fatalf("eval.md:\n%s", md)
	}
	for _, f := range EvalFiles {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDomainCheck: sets of the training register are in the domain,
// sets of another register are not, a set far larger than the training
// sets is not, and the domain survives a bundle's round trip.
func TestDomainCheck(t *testing.T) {
	train := evalCorpus(1, "old", 2, 4, 12, oldRegister)
	d, _ := trainDomain(t, train)
	texts := func(utts []data.Utterance, n int) []string {
		var out []string
		for _, u := range utts[:n] {
			out = append(out, u.Text)
		}
		return out
	}
	same := evalCorpus(9, "old", 2, 4, 12, oldRegister)
	other := evalCorpus(9, "new", 1, 4, 12, newRegister)
	for _, n := range []int{5, 10} {
		if ck := d.Check(texts(same, n)); !ck.InDomain {
			t.Errorf("%d lines of the training register: %s, want in the domain", n, ck)
		}
		if ck := d.Check(texts(other, n)); ck.InDomain {
			t.Errorf("%d lines of another register: %s, want outside", n, ck)
		}
	}
	// 200 lines of the training register: its words are in the domain
	// (the measures allow for the set's size), its size is not (the
	// calibration saw sets of 6 lines).
	big := d.Check(texts(same, 200))
	if big.InDomain || big.Distance > big.MaxDistance || big.UnknownZ > big.MaxUnknownZ || big.Words <= big.MaxWords || big.MaxWords == 0 {
		t.Errorf("200 lines of the training register: %s, want outside by its size alone", big)
	}
	if ck := d.Check(nil); ck.InDomain {
		t.Error("no words: want outside the domain")
	}
	dir := filepath.Join(t.TempDir(), "verifier")
	saveTfidfBundle(t, dir, train)
	back, err := verifier.ReadDomain(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, b := back.Check(texts(other, 50)), d.Check(texts(other, 50))
	if a != b {
		t.Fatalf("read back %+v, saved %+v", a, b)
	}
}

// TestCheckInputHashes refuses a corpus file the bundle's manifest lists
// as an input (same SHA-256), naming both, and passes another file.
func TestCheckInputHashes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "verifier")
	saveTfidfBundle(t, dir, evalCorpus(1, "old", 2, 4, 12, oldRegister))
	tmp := t.TempDir()
	trained, other := filepath.Join(tmp, "trained.parquet"), filepath.Join(tmp, "other.parquet")
	os.WriteFile(trained, []byte("the training corpus"), 0o644)
	os.WriteFile(other, []byte("another corpus"), 0o644)
	sum := sha256.Sum256([]byte("the training corpus"))
	h := hex.EncodeToString(sum[:])
	m, _ := json.Marshal(map[string]any{"inputs": []map[string]string{{"path": "/data/train.parquet", "sha256": h}}})
	if err := os.WriteFile(filepath.Join(dir, verifier.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := verifier.CheckInputHashes(dir, []string{other}); err != nil {
		t.Fatalf("another file: %v", err)
	}
	err := verifier.CheckInputHashes(dir, []string{other, trained})
	if err == nil || !strings.Contains(err.Error(), trained) || !strings.Contains(err.Error(), "/data/train.parquet") {
		t.Fatalf("the training input: %v, want a refusal naming both files", err)
	}
}

// TestEvalCrossFit: the cross-fitted rule follows a score that rises with
// sameness, and never reads a falling one backwards.
func TestEvalCrossFit(t *testing.T) {
	var up, down []float64
	var labels []bool
	for i := range 40 {
		same := i%2 == 0
		s := 0.2 + 0.01*float64(i%7)
		if same {
			s += 0.5
		}
		up, down, labels = append(up, s), append(down, -s), append(labels, same)
	}
	acc := func(p []float64) float64 { a, _ := stats.AccuracyF1(p, labels, 0.5); return a }
	if a := acc(evalCrossFit(up, labels)); a != 1 {
		t.Fatalf("rising score: accuracy %v, want 1", a)
	}
	if a := acc(evalCrossFit(down, labels)); a != 0.5 {
		t.Fatalf("falling score: accuracy %v, want 0.5 (a flat rule, not the score read backwards)", a)
	}
}

// TestEvalOptionsResolve: Resolve fills in `roleprint eval`'s defaults
// where a field is zero and keeps what a caller set (an empty non-nil Vs
// compares with none).
func TestEvalOptionsResolve(t *testing.T) {
	o := EvalOptions{}.Resolve()
	if !slices.Equal(o.Seeds, []int64{1, 2, 3}) || !slices.Equal(o.Vs, []string{EvalDefaultVs}) || o.Replicates != 2000 ||
		o.Confidence != 0.95 || o.Adapt != EvalAdaptAuto || o.Pairs == nil || o.Pairs.MaxTestPairs != pairs.DefaultPairConfig().MaxTestPairs {
		t.Fatalf("resolved zero options %+v: want seeds 1,2,3, vs tfidf, 2000 replicates, confidence 0.95, adapt auto, the default pairs", o)
	}
	if err := o.check(); err != nil {
		t.Fatalf("resolved options refused: %v", err)
	}
	set := EvalOptions{Seeds: []int64{7}, Vs: []string{}, Replicates: 50, Confidence: 0.9, Adapt: EvalAdaptNone}.Resolve()
	if !slices.Equal(set.Seeds, []int64{7}) || set.Vs == nil || len(set.Vs) != 0 || set.Replicates != 50 || set.Confidence != 0.9 || set.Adapt != EvalAdaptNone {
		t.Fatalf("resolved set options %+v: want them kept", set)
	}
	if err := (EvalOptions{}).check(); err == nil {
		t.Fatal("zero options accepted by Evaluate's check")
	}
}

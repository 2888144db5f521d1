package verifier

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// heldOutLines are, per training speaker of c (corpus and name), the
// lines of its sets that no training pair uses and no training set holds.
func heldOutLines(c *pairs.PairCorpus) map[[2]string][]string {
	inTrain := map[string]bool{}
	for _, p := range c.Train {
		inTrain[p.A], inTrain[p.B] = true, true
	}
	trainText := map[string]bool{}
	trained := map[[2]string]bool{}
	for id := range inTrain {
		s := c.Sets[id]
		trained[[2]string{pairs.CorpusOf(s.Source), s.Speaker}] = true
		for _, t := range s.Texts {
			trainText[t] = true
		}
	}
	ids := map[string]bool{}
	for id := range c.Sets {
		ids[id] = true
	}
	out := map[[2]string][]string{}
	for _, s := range sv.SetsByID(c, ids) {
		k := [2]string{pairs.CorpusOf(s.Source), s.Speaker}
		if inTrain[s.ID] || !trained[k] {
			continue
		}
		for _, t := range s.Texts {
			if !trainText[t] {
				out[k] = append(out[k], t)
			}
		}
	}
	return out
}

// styleLines are n lines of speaker s of styles: half its own words, half
// common ones.
func styleLines(rng *rand.Rand, styles [][]string, s, n int) []string {
	common := strings.Fields("the a and i you is was it so well oh")
	out := make([]string, n)
	for u := range out {
		w := make([]string, 6)
		for j := range w {
			if rng.IntN(2) == 0 {
				w[j] = styles[s][rng.IntN(len(styles[s]))]
			} else {
				w[j] = common[rng.IntN(len(common))]
			}
		}
		out[u] = strings.Join(w, " ")
	}
	return out
}

// styledCorpus is a pair corpus of six speakers of two corpora, speaker s
// with 3 + s training sets (so utterance counts differ), each with its
// own words.
func styledCorpus() (*pairs.PairCorpus, [][]string) {
	styles := [][]string{
		strings.Fields("science physics math theory quantum"), strings.Fields("love heart feel cry hug"),
		strings.Fields("money work job boss office"), strings.Fields("shall thee thou art hath"),
		strings.Fields("dude man buddy pal game"), strings.Fields("coffee tea beer pizza cake"),
	}
	rng := rand.New(rand.NewPCG(4, 2))
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}}
	var ids [][]string
	for s := range styles {
		var mine []string
		for k := 0; k < 3+s; k++ {
			id := fmt.Sprintf("s%d-%d", s, k)
			c.Sets[id] = &pairs.UtteranceSet{ID: id, Source: []string{"sitcom/ep1", "play/act1"}[s%2], Speaker: fmt.Sprintf("Speaker%d", s), Texts: styleLines(rng, styles, s, 4)}
			mine = append(mine, id)
		}
		ids = append(ids, mine)
	}
	n := 0
	for s, mine := range ids {
		for k := 1; k < len(mine); k++ {
			o := ids[(s+1)%len(ids)][0]
			c.Train = append(c.Train, pairs.Pair{ID: fmt.Sprint("t", n), A: mine[0], B: mine[k], Label: 1}, pairs.Pair{ID: fmt.Sprint("t", n+1), A: mine[k], B: o})
			n += 2
		}
	}
	c.Dev = c.Train
	return c, styles
}

// saveStyled fits tfidf on styledCorpus and saves a bundle with speaker
// profiles (maxSpeakers as SpeakerProfiles takes it; -1: none) to dir.
func saveStyled(t *testing.T, dir string, maxSpeakers int) (*pairs.PairCorpus, [][]string) {
	t.Helper()
	ctx := context.Background()
	c, styles := styledCorpus()
	enc, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Seed: 1, Settings: map[string]string{"min_df": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	fit := sv.TrainTexts(c, 0)
	if err := enc.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	cos, labels, err := DevCosines(ctx, enc, c)
	if err != nil {
		t.Fatal(err)
	}
	parts := []SavePart{{Row: "tfidf", Encoder: enc, Settings: map[string]string{"min_df": "1"}, Seed: 1}}
	var sp *Speakers
	if maxSpeakers >= 0 {
		if sp, err = SpeakerProfiles(ctx, parts, TrainSpeakerSets(c), maxSpeakers); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Save(dir, SaveOptions{Name: "tfidf", FitTexts: fit, DevCosines: cos, DevLabels: labels, Parts: parts, Speakers: sp}); err != nil {
		t.Fatal(err)
	}
	return c, styles
}

// A bundle lists its training speakers (corpus, utterances, most first),
// and a set of speaker X's held-out lines has X as its nearest training
// speaker, through Save and Load.
func TestSpeakersSavedAndNearest(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "verifier")
	c, styles := saveStyled(t, dir, 0)
	v, err := Load(ctx, dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if !v.HasSpeakers() || v.Spec.SpeakersFile != SpeakersFile {
		t.Fatalf("bundle without speakers: spec %+v", v.Spec)
	}
	want := TrainSpeakerSets(c)
	if len(want) != 6 || v.Speakers.Len() != 6 || v.Speakers.TrainingSpeakers != 6 {
		t.Fatalf("%d training speakers, bundle lists %d of %d", len(want), v.Speakers.Len(), v.Speakers.TrainingSpeakers)
	}
	for i, s := range v.Speakers.Speakers {
		// Speaker5 has the most sets, so the most utterances: first.
		name, corp := fmt.Sprintf("Speaker%d", 5-i), []string{"sitcom", "play"}[(5-i)%2]
		if s.Speaker != name || s.Corpus != corp || s.Utterances != 4*(3+5-i) {
			t.Errorf("speaker %d: %+v, want %s (%s) with %d utterances", i, s, name, corp, 4*(3+5-i))
		}
	}
	rng := rand.New(rand.NewPCG(99, 1)) // lines no training set holds
	for s := range styles {
		lines := styleLines(rng, styles, s, 5)
		n, err := v.Nearest(ctx, lines, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(n) != 3 || n[0].Speaker != fmt.Sprintf("Speaker%d", s) || !(n[0].Similarity > n[1].Similarity) || !(n[1].Similarity >= n[2].Similarity) {
			t.Errorf("held-out lines of Speaker%d: nearest %v", s, n)
		}
	}
	if _, err := v.Nearest(ctx, nil, 3); err == nil {
		t.Error("an empty set: want an error")
	}
	// A part whose width differs from the profiles' (an adapted n-gram
	// part drops its corpus channel) is refused, not compared.
	v.Speakers.PartDims[0]++
	if _, err := v.Nearest(ctx, styleLines(rng, styles, 0, 5), 3); err == nil || !strings.Contains(err.Error(), "unadapted") {
		t.Errorf("profiles of another width: err %v", err)
	}
}

// The cap keeps the speakers with the most utterances, and the vectors
// file holds exactly their rows.
func TestSpeakersCap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "verifier")
	saveStyled(t, dir, 2)
	sp, err := readSpeakers(dir, SpeakersFile)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Len() != 2 || sp.TrainingSpeakers != 6 || sp.MaxSpeakers != 2 || sp.Speakers[0].Speaker != "Speaker5" || sp.Speakers[1].Speaker != "Speaker4" {
		t.Fatalf("capped at 2: %d of %d kept (%+v)", sp.Len(), sp.TrainingSpeakers, sp.Speakers)
	}
	fi, err := os.Stat(filepath.Join(dir, SpeakersVectorsFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != int64(4*2*sp.Dim) {
		t.Errorf("%s: %d bytes, want 2 × %d float32", SpeakersVectorsFile, fi.Size(), sp.Dim)
	}
	if sp.InputDim <= SpeakerDim && (sp.Projection != ProjectionNone || sp.Dim != sp.InputDim) {
		t.Errorf("a %d-wide space: projection %s to %d", sp.InputDim, sp.Projection, sp.Dim)
	}
}

// A bundle without speakers (as every bundle saved before them) loads
// and says so; a speakers file of another version, or vectors of the
// wrong size, is an error naming the file.
func TestSpeakersOldAndBadBundles(t *testing.T) {
	ctx := context.Background()
	old := filepath.Join(t.TempDir(), "verifier")
	saveStyled(t, old, -1)
	b, err := os.ReadFile(filepath.Join(old, SpecFile))
	if err != nil || strings.Contains(string(b), `"speakers"`) {
		t.Fatalf("a bundle without speakers names them: %s", b)
	}
	v, err := Load(ctx, old, LoadOptions{})
	if err != nil {
		t.Fatalf("a bundle without speakers: %v", err)
	}
	defer v.Close()
	if v.HasSpeakers() {
		t.Error("HasSpeakers on a bundle without them")
	}
	if _, err := v.Nearest(ctx, []string{"hello there"}, 3); !errors.Is(err, ErrNoSpeakers) {
		t.Errorf("Nearest without speakers: %v, want ErrNoSpeakers", err)
	}
	if _, err := v.Verify(ctx, []string{"hello there"}, []string{"and you"}); err != nil {
		t.Errorf("Verify without speakers: %v", err)
	}

	for _, tc := range []struct {
		name, want string
		edit       func(dir string)
	}{
		{"version", "format version 2", func(dir string) {
			p := filepath.Join(dir, SpeakersFile)
			b, _ := os.ReadFile(p)
			var m map[string]any
			json.Unmarshal(b, &m)
			m["format_version"] = 2
			b, _ = json.Marshal(m)
			os.WriteFile(p, b, 0o644)
		}},
		{"short vectors", SpeakersVectorsFile, func(dir string) {
			p := filepath.Join(dir, SpeakersVectorsFile)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-4], 0o644)
		}},
		{"missing", "speakers.json is missing", func(dir string) { os.Remove(filepath.Join(dir, SpeakersFile)) }},
		// A width whose byte count wraps around to the vectors file's
		// size (4 × 2^62 × 1 speaker = 2^64 ≡ 0 bytes) is refused, not
		// allocated.
		{"wrapping dim", "dim 4611686018427387904", func(dir string) {
			p := filepath.Join(dir, SpeakersFile)
			b, _ := os.ReadFile(p)
			var m map[string]any
			json.Unmarshal(b, &m)
			m["dim"] = 1 << 62
			m["speakers"] = m["speakers"].([]any)[:1]
			b, _ = json.Marshal(m)
			os.WriteFile(p, b, 0o644)
			os.WriteFile(filepath.Join(dir, SpeakersVectorsFile), nil, 0o644)
		}},
	} {
		dir := filepath.Join(t.TempDir(), "verifier")
		saveStyled(t, dir, 0)
		tc.edit(dir)
		if _, err := Load(ctx, dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one naming %q", tc.name, err, tc.want)
		}
	}
}

// On the embedded corpus's tfidf space (20,000 features, stored through
// the count sketch), the sketched similarities stay close to the exact
// ones, the ranking mostly holds, and held-out lines of a training speaker
// find it among the 3 nearest far above chance.
func TestSpeakersSketchOnEmbeddedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds the embedded corpus")
	}
	ctx := context.Background()
	c, err := pairs.BuildPairs(corpus.MustDefault(), pairs.DefaultPairConfig())
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.(sv.Fitter).Fit(ctx, sv.TrainTexts(c, 0)); err != nil {
		t.Fatal(err)
	}
	parts := []SavePart{{Encoder: enc}}
	sketch, err := SpeakerProfiles(ctx, parts, TrainSpeakerSets(c), 0)
	if err != nil {
		t.Fatal(err)
	}
	if sketch.Projection != ProjectionCountSketch || sketch.Dim != SpeakerDim || sketch.InputDim <= SpeakerDim {
		t.Fatalf("a %d-wide space stored as %s, %d wide", sketch.InputDim, sketch.Projection, sketch.Dim)
	}
	speakerDim = math.MaxInt
	exact, err := SpeakerProfiles(ctx, parts, TrainSpeakerSets(c), 0)
	speakerDim = SpeakerDim
	if err != nil {
		t.Fatal(err)
	}
	held := heldOutLines(c)
	keys := make([][2]string, 0, len(held))
	for k := range held {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(len(held[b]), len(held[a])), strings.Compare(a[1], b[1]))
	})
	var maxDiff, sumDiff float64
	pairsN, inTop3, sameTop := 0, 0, 0
	for _, k := range keys {
		if len(held[k]) < 20 {
			break
		}
		qs, err := sketch.embed(ctx, []sv.Encoder{enc}, []float64{1}, [][]string{held[k]})
		if err != nil {
			t.Fatal(err)
		}
		qe, err := exact.embed(ctx, []sv.Encoder{enc}, []float64{1}, [][]string{held[k]})
		if err != nil {
			t.Fatal(err)
		}
		ns, ne := sketch.nearest(qs[0], exact.Len()), exact.nearest(qe[0], exact.Len())
		sim := map[string]float64{}
		for _, n := range ne {
			sim[n.Speaker] = n.Similarity
		}
		for _, n := range ns {
			d := math.Abs(n.Similarity - sim[n.Speaker])
			maxDiff, sumDiff, pairsN = max(maxDiff, d), sumDiff+d, pairsN+1
		}
		for _, n := range ns[:3] {
			if n.Speaker == k[1] {
				inTop3++
			}
		}
		if ns[0].Speaker == ne[0].Speaker {
			sameTop++
		}
	}
	n := 0
	for _, k := range keys {
		if len(held[k]) >= 20 {
			n++
		}
	}
	t.Logf("%d speakers with ≥ 20 held-out lines among %d profiles: own speaker in the sketch's top 3 for %d, same nearest as exact for %d; |sketch − exact| max %.3f, mean %.4f",
		n, sketch.Len(), inTop3, sameTop, maxDiff, sumDiff/float64(pairsN))
	if n < 10 || 3*inTop3 < n || 4*sameTop < 3*n || maxDiff > 0.12 || sumDiff/float64(pairsN) > 0.03 {
		t.Errorf("the sketch does not keep the space: see above")
	}
}

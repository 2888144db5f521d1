package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// fillerDomain is a show where what tells speakers apart is in their long
// lines: every set is six one-word replies drawn from a pool all speakers
// share and one long line of its speaker's own words, so a set pooled as
// the mean of its texts' unit vectors is mostly shared filler and a set
// counted as one document is mostly its speaker. It returns the sets and
// their speakers.
func fillerDomain(seed uint64) (sets [][]string, speaker []int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	filler := []string{"Yeah.", "Okay.", "Right.", "What?", "Sure.", "Oh.", "No.", "Hm."}
	own := [][]string{
		{"absolutely", "splendid", "marvellous", "indeed", "quite", "rather"},
		{"dude", "totally", "awesome", "gonna", "like", "whatever"},
		{"hypothesis", "empirical", "data", "variance", "model", "sample"},
		{"darling", "fabulous", "gorgeous", "honey", "divine", "sweetie"},
	}
	common := []string{"the", "and", "we", "it", "was", "to", "that", "you", "of", "in"}
	for sp, words := range own {
		for range 6 {
			var s []string
			for range 6 {
				s = append(s, filler[rng.IntN(len(filler))])
			}
			var long []string
			for range 24 {
				if rng.IntN(3) == 0 {
					long = append(long, words[rng.IntN(len(words))])
				} else {
					long = append(long, common[rng.IntN(len(common))])
				}
			}
			s = append(s, strings.Join(long, " ")+".")
			sets, speaker = append(sets, s), append(speaker, sp)
		}
	}
	return sets, speaker
}

// pairAUC is the AUC of the cosines of every pair of vecs, same-speaker
// pairs positive.
func pairAUC(vecs [][]float32, speaker []int) float64 {
	var sc []float64
	var pos []bool
	for i := range vecs {
		for j := i + 1; j < len(vecs); j++ {
			sc, pos = append(sc, stats.Cosine(vecs[i], vecs[j])), append(pos, speaker[i] == speaker[j])
		}
	}
	return stats.AUC(sc, pos)
}

// encodeSets embeds sets with e, failing the test on an error.
func encodeSets(t *testing.T, e sv.SetEncoder, sets [][]string) [][]float32 {
	t.Helper()
	v, err := e.EncodeSets(context.Background(), sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// adaptedTo returns an untrained char-channel metric with options o
// fitted on training texts and adapted to the texts of sets.
func adaptedTo(t *testing.T, o NgramMetricOptions, sets [][]string) *ngramMetric {
	t.Helper()
	m := newTestMetric(t, o, 1, "")
	if err := m.Fit(context.Background(), trainTextsOf(styleCorpus(3))); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range sets {
		texts = append(texts, s...)
	}
	if err := m.Adapt(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestNgramMetricAdaptPoolDoc checks adapt_pool=doc: an adapted set of up
// to docChunkSize texts is their TF-IDF as one document minus the mean
// document of chunks of docChunkSize consecutive adaptation texts
// (computed here with a "tfidf" encoder with pool=doc fitted on the same
// texts), and on a show whose
// speakers differ in their long lines and share their one-word replies
// it ranks same-speaker pairs far better than mean pooling, which sees
// mostly the replies. Training (as saved) is not touched.
func TestNgramMetricAdaptPoolDoc(t *testing.T) {
	ctx := context.Background()
	sets, speaker := fillerDomain(1)
	o := testMetricOptions()
	o.TopicMask = 0 // the char channel alone
	mean := adaptedTo(t, o, sets)
	o.AdaptPool = adaptPoolDoc
	doc := adaptedTo(t, o, sets)

	vm := encodeSets(t, mean, sets)
	vd := encodeSets(t, doc, sets)
	aucMean, aucDoc := pairAUC(vm, speaker), pairAUC(vd, speaker)
	if aucDoc < 0.95 || aucDoc < aucMean+0.1 {
		t.Errorf("same-speaker AUC: doc pooling %.3f, mean pooling %.3f; want doc ≥ 0.95 and 0.1 above mean", aucDoc, aucMean)
	}

	// The same vectors by another route.
	var texts []string
	for _, s := range sets {
		texts = append(texts, s...)
	}
	to := DefaultTFIDFOptions()
	to.CharNgramOptions, to.Pool, to.Center = o.CharNgramOptions, "doc", false
	tf, err := NewTFIDF(to)
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.Fit(ctx, texts); err != nil {
		t.Fatal(err)
	}
	enc := tf.(sv.SetEncoder)
	size := doc.docChunkSize()
	var chunks [][]string
	for i := 0; i < len(texts); i += size {
		chunks = append(chunks, texts[i:min(i+size, len(texts))])
	}
	if size != docChunkTexts || len(chunks) < 2 || len(texts)%size != 0 {
		t.Fatalf("chunk size %d (want %d without a cohort), %d texts in %d chunks (want whole chunks: no remainder rule here)", size, docChunkTexts, len(texts), len(chunks))
	}
	cv := encodeSets(t, enc, chunks)
	centre := make([]float64, len(cv[0]))
	for _, v := range cv {
		for d, x := range v {
			centre[d] += float64(x) / float64(len(cv))
		}
	}
	want := encodeSets(t, enc, sets)
	for _, v := range want {
		for d := range v {
			v[d] -= float32(centre[d])
		}
	}
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			if got, w := stats.Cosine(vd[i], vd[j]), stats.Cosine(want[i], want[j]); math.Abs(got-w) > 1e-5 {
				t.Fatalf("sets %d, %d: adapted cosine %.6f, documents centred on the chunks' mean %.6f", i, j, got, w)
			}
		}
	}

	// As saved, adapt_pool changes nothing.
	o.AdaptPool = adaptPoolMean
	a := newTestMetric(t, o, 1, "")
	o.AdaptPool = adaptPoolDoc
	b := newTestMetric(t, o, 1, "")
	for _, m := range []*ngramMetric{a, b} {
		if err := m.Fit(ctx, trainTextsOf(styleCorpus(3))); err != nil {
			t.Fatal(err)
		}
	}
	va := encodeSets(t, a, sets[:3])
	vb := encodeSets(t, b, sets[:3])
	for i := range va {
		for d := range va[i] {
			if va[i][d] != vb[i][d] {
				t.Fatalf("as saved, set %d dim %d: %v with adapt_pool=mean, %v with doc", i, d, va[i][d], vb[i][d])
			}
		}
	}
}

// TestNgramMetricAdaptChannelsChar checks adapt_channels=char: adapted,
// the topic-masked and word channels are zeros and every cosine is that
// of an encoder with the char channel alone; as saved, every channel
// counts.
func TestNgramMetricAdaptChannelsChar(t *testing.T) {
	ctx := context.Background()
	sets, _ := fillerDomain(2)
	o := testMetricOptions() // char + masked channels
	o.WordWeight = 1
	o.AdaptChannels = adaptChannelsChar
	all := adaptedTo(t, o, sets)
	if len(all.chans) != 3 {
		t.Fatalf("%d channels, want char, masked and word", len(all.chans))
	}
	o.TopicMask, o.WordWeight = 0, 0
	char := adaptedTo(t, o, sets)
	va := encodeSets(t, all, sets)
	vc := encodeSets(t, char, sets)
	d0 := all.chans[0].tf.Dim()
	for i := range va {
		for d := d0; d < len(va[i]); d++ {
			if va[i][d] != 0 {
				t.Fatalf("set %d: dim %d of the %d-dim masked and word channels is %v, want 0", i, d-d0, len(va[i])-d0, va[i][d])
			}
		}
		for j := i + 1; j < len(va); j++ {
			if got, w := stats.Cosine(va[i], va[j]), stats.Cosine(vc[i], vc[j]); math.Abs(got-w) > 1e-5 {
				t.Fatalf("sets %d, %d: cosine %.6f with adapt_channels=char, %.6f with the char channel alone", i, j, got, w)
			}
		}
	}
	saved := newTestMetric(t, all.opts, 1, "")
	if err := saved.Fit(ctx, trainTextsOf(styleCorpus(3))); err != nil {
		t.Fatal(err)
	}
	vs := encodeSets(t, saved, sets[:1])
	nonzero := 0
	for _, x := range vs[0][saved.chans[0].tf.Dim():] {
		if x != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("as saved, adapt_channels=char zeroed the masked and word channels")
	}
}

// TestDocChunks checks how a set is cut into documents: consecutive runs
// of size texts, a remainder shorter than half of size joined to the
// document before it.
func TestDocChunks(t *testing.T) {
	for _, c := range []struct {
		n, size int
		want    []int
	}{
		{0, 12, nil},
		{5, 12, []int{5}},
		{12, 12, []int{12}},
		{17, 12, []int{17}}, // 5 < 6 joins
		{18, 12, []int{12, 6}},
		{29, 12, []int{12, 17}},
		{30, 12, []int{12, 12, 6}},
		{36, 12, []int{12, 12, 12}},
		{3, 1, []int{1, 1, 1}},
	} {
		texts := make([]string, c.n)
		for i := range texts {
			texts[i] = fmt.Sprint(i)
		}
		var got []int
		next := 0
		for _, d := range docChunks(texts, c.size) {
			if len(d) == 0 || d[0] != fmt.Sprint(next) {
				t.Fatalf("%d texts, size %d: a document starts at %v, want text %d (consecutive, none left out)", c.n, c.size, d, next)
			}
			next += len(d)
			got = append(got, len(d))
		}
		if next != c.n || !slices.Equal(got, c.want) {
			t.Errorf("%d texts, size %d: documents of %v, want %v", c.n, c.size, got, c.want)
		}
	}
}

// TestNgramMetricAdaptDocLongSet checks that a set longer than a document
// is the mean of its documents' vectors, so its vector does not drift
// with its size: the set of all of one speaker's lines is the mean of
// its sets' vectors when each set is one document.
func TestNgramMetricAdaptDocLongSet(t *testing.T) {
	sets, _ := fillerDomain(3)
	o := testMetricOptions()
	o.TopicMask, o.AdaptPool = 0, adaptPoolDoc
	m := adaptedTo(t, o, sets)
	if m.poolSize() != docChunkTexts {
		t.Fatalf("pooled by documents of %d texts, want %d (with mean pooling this test checks nothing)", m.poolSize(), docChunkTexts)
	}
	// Sets of docChunkTexts texts: pad each 7-text set with 5 texts of the next.
	var docs [][]string
	var all []string
	for i := 0; i+1 < len(sets) && len(docs) < 4; i += 2 {
		d := append(append([]string{}, sets[i]...), sets[i+1][:docChunkTexts-len(sets[i])]...)
		docs = append(docs, d)
		all = append(all, d...)
	}
	v := encodeSets(t, m, append([][]string{all}, docs...))
	for d := range v[0] {
		var mean float64
		for _, x := range v[1:] {
			mean += float64(x[d]) / float64(len(docs))
		}
		if math.Abs(float64(v[0][d])-mean) > 1e-5 {
			t.Fatalf("dim %d: the long set %v, the mean of its %d documents %v", d, v[0][d], len(docs), mean)
		}
	}
}

package baseline

import (
	"testing"

	"github.com/roleprint/roleprint/data/corpus"
)

// TestPOSFeaturesRepeatBitForBit tags the same texts many times in one
// process (bypassing posCache) and requires identical features each time.
// prose's tagger sums perceptron weights and picks the best class by
// ranging over Go maps, whose order is randomised, so near-tied words could
// change tags between passes (and between runs). The corpus utterances
// below are the six of the embedded corpus whose features differed between
// two runs of one test binary with prose's tagging (ties or last-bit
// near-ties); the made-up texts have unknown words, where few features
// carry weight.
func TestPOSFeaturesRepeatBitForBit(t *testing.T) {
	texts := []string{"Zxqv.", "Blorft wibble zxqv!", "Qwzx, plimb frobnicate glarb?", "Mmm zzt."}
	utts, err := corpus.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{170, 2024, 3768, 8802, 9671, 19501} {
		if i < len(utts) {
			texts = append(texts, utts[i].Text)
		}
	}
	first := make([][]float64, len(texts))
	for i, s := range texts {
		if first[i], err = POSFeatures(s); err != nil {
			t.Fatal(err)
		}
	}
	for pass := 1; pass < 40; pass++ {
		for i, s := range texts {
			f, err := POSFeatures(s)
			if err != nil {
				t.Fatal(err)
			}
			for d := range f {
				if f[d] != first[i][d] {
					t.Fatalf("pass %d: text %d %q: %s rate %v, first pass %v", pass, i, s, featName(d), f[d], first[i][d])
				}
			}
		}
	}
}

func featName(d int) string {
	if d < len(POSTags) {
		return POSTags[d]
	}
	return "punct"
}

// TestPOSTagPerOccurrence checks that a word repeated in one text is tagged
// at each position. prose's tokenizer reuses one *Token for repeated
// whitespace-separated spans, so its Document.Tokens reported the tag of
// the span's last occurrence for all of them.
func TestPOSTagPerOccurrence(t *testing.T) {
	m, err := taggerModel()
	if err != nil {
		t.Fatal(err)
	}
	tags := m.tag([]string{"We", "watch", "the", "watch", "."})
	if tags[1] != "VBP" || tags[3] != "NN" {
		t.Errorf("tags %v: want watch/VBP at 1 and watch/NN at 3", tags)
	}
	// Through POSFeatures (prose tokenizes): one VBP and one NN in 4 words.
	f, err := POSFeatures("We watch the watch.")
	if err != nil {
		t.Fatal(err)
	}
	if f[posIndex["VBP"]] != 0.25 || f[posIndex["NN"]] != 0.25 {
		t.Errorf("VBP rate %v, NN rate %v, want 0.25 each", f[posIndex["VBP"]], f[posIndex["NN"]])
	}
}

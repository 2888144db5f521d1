package textmetrics_test

import (
	"fmt"

	"github.com/roleprint/roleprint/persona/textmetrics"
)

// ExampleContextualBERTScore scores a candidate against its reference
// from token vectors (in practice sv/neural's TokenModel gives them, e.g.
// FacebookAI/roberta-large at bert_score's layer 17) and rescales with
// bert_score's published baseline for that model and layer.
func ExampleContextualBERTScore() {
	tokens := func(vs ...[]float32) textmetrics.TokenVectors {
		t := textmetrics.TokenVectors{Vectors: vs, Special: make([]bool, len(vs))}
		for i := range vs {
			t.IDs = append(t.IDs, int32(i+10))
		}
		return t
	}
	cand := tokens([]float32{1, 0.1}, []float32{0.2, 1})
	ref := tokens([]float32{1, 0}, []float32{0, 1}, []float32{0.7, 0.7})
	s, _ := textmetrics.ContextualBERTScore([]textmetrics.TokenVectors{cand}, []textmetrics.TokenVectors{ref}, textmetrics.ContextualOptions{})
	layer, _ := textmetrics.DefaultLayer("FacebookAI/roberta-large")
	b, _ := textmetrics.PublishedBaseline("en", "FacebookAI/roberta-large", layer)
	r := b.Rescale(s[0])
	fmt.Printf("P %.3f R %.3f F %.3f; layer %d, rescaled F %.3f\n", s[0].Precision, s[0].Recall, s[0].F, layer, r.F)
	// Output:
	// P 0.988 R 0.936 F 0.961; layer 17, rescaled F 0.770
}

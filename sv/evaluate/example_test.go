package evaluate_test

import (
	"context"
	"fmt"
	"log"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv/evaluate"
	"github.com/roleprint/roleprint/sv/verifier"
)

// A saved verifier, frozen, on a corpus it was not trained on, against
// tfidf on the same pairs; then one verdict with its domain check.
func ExampleEvaluate() {
	ctx := context.Background()
	v, err := verifier.Load(ctx, "runs/shared/verifier", verifier.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	utts, err := data.ReadUtterances("tbbt.parquet")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := evaluate.Evaluate(ctx, v, utts, evaluate.EvalOptions{}.Resolve()) // seeds 1, 2, 3; --vs tfidf; 2000 bootstrap replicates
	if err != nil {
		log.Fatal(err) // a corpus the bundle was trained on is refused here
	}
	for _, r := range rep.Rows {
		fmt.Printf("%s %s-%s AUC %.2f ± %.2f, ACC %.2f (%s), ECE %.3f\n", r.Encoder, r.Corpus, r.Level, r.AUCMean, r.AUCStd, r.AccMean, r.Rule, r.ECE)
	}
	for _, c := range rep.Comparisons {
		fmt.Printf("%s-%s: %s − %s = %+.2f [%+.2f, %+.2f]\n", c.Corpus, c.Level, c.A, c.B, 100*c.AUCDiff, 100*c.AUCDiffCI[0], 100*c.AUCDiffCI[1])
	}

	res, err := v.Verify(ctx, []string{"Bazinga!", "I'm not crazy, my mother had me tested."}, []string{"Hey, sweetie."})
	if err != nil {
		log.Fatal(err)
	}
	if res.InDomain != nil && !*res.InDomain {
		fmt.Println("outside the verifier's training text:", res.A, res.B)
	}
	fmt.Printf("same speaker: %v (P(same) %.3f ≥ %.1f)\n", res.Same, res.Probability, res.Threshold)
}

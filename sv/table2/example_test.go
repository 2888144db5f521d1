package table2_test

import (
	"context"
	"fmt"
	"log"

	"github.com/roleprint/roleprint/data/pairs"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers the baseline encoders and their rows
	"github.com/roleprint/roleprint/sv/table2"
)

// Run Table 2 as `roleprint reproduce --quick --encoders liwc,tfidf
// --mixed none` does: a request, resolved once for the inputs on this
// machine, then run. A notebook builds the same request (kernel's
// Table2Request) and gets the same plan.
func ExampleResolve() {
	ctx := context.Background()
	in, err := table2.LoadInputs(nil) // no files: the embedded Shakespeare corpus
	if err != nil {
		log.Fatal(err)
	}
	req := table2.Request{Preset: "quick", Encoders: []string{"liwc", "tfidf"}, Mixed: []string{}}
	plan, err := table2.Resolve(ctx, req, in)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("rows %v, %d round(s), seed %d, preset %s\n", plan.Config.Encoders, plan.Config.Rounds, plan.Config.Seed, plan.Config.Preset)
	res, err := table2.Run(ctx, plan)
	if err != nil {
		log.Fatal(err)
	}
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	for _, r := range res.Rows {
		if r.Exposure == string(k.Exposure) && r.Level == string(k.Level) {
			fmt.Printf("%s %s: AUC %.2f\n", r.Encoder, k, r.AUCMean)
		}
	}
	// Output:
	// rows [liwc tfidf], 1 round(s), seed 1, preset quick
	// liwc unseen-unseen-base: AUC 0.53
	// tfidf unseen-unseen-base: AUC 0.67
}

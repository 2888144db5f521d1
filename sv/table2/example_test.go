package table2_test

import (
	"context"
	"fmt"
	"log"

	"github.com/roleprint/roleprint/data/pairs"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers the baseline encoders and their rows
	_ "github.com/roleprint/roleprint/sv/evaluate" // registers the transfer folds' held-out evaluation
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

// The transfer table: leave one corpus out over the inputs, the default
// fine-tuned row trained on the others and evaluated on each held-out
// corpus as `roleprint eval` does (import sv/evaluate, which registers
// the evaluation), then the bundle calibrated on the held-out scores.
func ExampleRun_transfer() {
	ctx := context.Background()
	in, err := table2.LoadInputs([]string{"annomi.parquet", "friends.parquet", "shakespeare.parquet", "tbbt.parquet"})
	if err != nil {
		log.Fatal(err)
	}
	plan, err := table2.Resolve(ctx, table2.Request{Preset: "transfer"}, in) // or Request.Transfer with rows of your own
	if err != nil {
		log.Fatal(err) // fewer than 2 corpora, no fine-tuned row
	}
	for _, f := range plan.Transfer.Folds {
		fmt.Printf("%s held out: train on %v\n", f.HeldOut, f.TrainedOn)
	}
	plan.Config.CheckpointDir = "runs/transfer/checkpoints" // resumable per fold and row
	res, err := table2.Run(ctx, plan)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Transfer.Rows {
		fmt.Printf("%s on %s-%s: AUC %.2f vs %s %.2f, Δ %+.2f, ECE cross-fitted %.3f\n", r.Row, r.HeldOut, r.Level, r.AUCMean, r.Vs, r.VsAUCMean, 100*r.AUCDiff, r.ECECrossFit)
	}
	spec, err := plan.SaveVerifier(ctx, res, "runs/transfer/verifier", nil, log.Printf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("P(same) calibrated on", spec.CalibrationSource)
}

package kernel_test

import (
	"context"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/kernel"
)

// A notebook cell where a teacher types two sets of lines and sees the
// verdict of the bundle `roleprint reproduce` wrote. Outside a notebook
// it does nothing; under nbconvert it prints one line and returns.
func ExampleNotebook_VerifyDemo() {
	nb := kernel.Open("04-role-play")
	kernel.Check(nb.VerifyDemo(context.Background(), "reproduce-out/verifier"))
}

// A threshold slider over tfidf's ROC on the Unseen-Unseen Base test set
// of round 1 of a Table 2 run that kept its pair scores.
func ExampleNotebook_ThresholdDemo() {
	ctx := context.Background()
	nb := kernel.Open("02-baselines")
	t := kernel.Must(nb.RunTable2(ctx, kernel.Table2Paper)) // keeps the pair scores
	uuBase := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	kernel.Check(nb.ThresholdDemo(ctx, t, uuBase, 1, "tfidf"))
}

package stats_test

import (
	"fmt"

	"github.com/roleprint/roleprint/stats"
)

// Average precision beside AUC, as sentence-transformers'
// BinaryClassificationEvaluator reports them: one negative scored above
// both positives costs AP more than AUC.
func ExampleAveragePrecision() {
	scores := []float64{0.9, 0.8, 0.7, 0.2}
	same := []bool{false, true, true, false}
	fmt.Printf("AUC %.3f, AP %.3f\n", stats.AUC(scores, same), stats.AveragePrecision(scores, same))
	// Output: AUC 0.500, AP 0.583
}

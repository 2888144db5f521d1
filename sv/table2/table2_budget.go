package table2

import "github.com/roleprint/roleprint/sv"

// The default run's time budgets, in one place. selectRows adds the
// costly rows (GoMLX encoders, fine-tuned rows) only while the estimate
// of the whole run (building the pairs and every selected row, over
// DefaultRounds rounds, for the measured sv.Workload on this machine) stays
// within the budget of its inputs. Each budget is its goal minus the
// ±30 % an estimate may miss by, so that a run the estimate puts at the
// budget still meets the goal.
const (
	// EmbeddedBudgetSeconds is the budget of `roleprint reproduce` on the
	// embedded corpus: 3 minutes, so that the main job stays within issue
	// 20's 4 minutes on 2 cores (3 min × 1.3 = 3.9 min).
	EmbeddedBudgetSeconds = 180.0
	// FilesBudgetSeconds is the budget of `roleprint reproduce FILES`:
	// 11 minutes, so that the four shared corpora (146k utterances) stay
	// within issue 18's 15 minutes on 2 cores (11 min × 1.3 = 14.3 min).
	FilesBudgetSeconds = 660.0
	// defaultRowBudgetSeconds is the budget used when no workload was
	// measured (selectRows on referenceWorkload): the embedded corpus's.
	defaultRowBudgetSeconds = EmbeddedBudgetSeconds
)

// DefaultRounds is the number of rounds the default-row budget is
// computed for (the paper's 3): the default rows do not change with
// --rounds, so tables stay comparable.
const DefaultRounds = 3

// BudgetFor returns the budget of a default run with workload w:
// EmbeddedBudgetSeconds for the embedded corpus, FilesBudgetSeconds for
// input files.
func BudgetFor(w sv.Workload) float64 {
	if w.Embedded {
		return EmbeddedBudgetSeconds
	}
	return FilesBudgetSeconds
}

package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// transferMachine is a pure-Go machine without a calibration (the
// committed row costs apply).
var transferMachine = table2.Machine{
	Detect: func(string) (table2.RowEnvironment, error) {
		return table2.RowEnvironment{Backend: sv.BackendInfo{Name: "go", Reason: "test machine"}}, nil
	},
	Calibrate: func(context.Context, []sv.Row, table2.RowEnvironment, *pairs.PairCorpus, table2.CalibrationOptions) map[string]sv.RowCost {
		return nil
	},
}

// transferCorpus writes a synthetic corpus for a Table 2 run: in each of
// 2 sources, 24 conversations of 3 of its 8 speakers (speaker k is in
// the conversations c with k ∈ {c, c+1, c+3} mod 8), each speaking 6 lines
// mixing their own words, the corpus's register and common words.
func transferCorpus(seed uint64, corpus string, register []string) []data.Utterance {
	rng := rand.New(rand.NewPCG(seed, 5))
	common := strings.Fields("the a and i you is it so well oh to of in that")
	const speakers, convs = 8, 24
	var out []data.Utterance
	for s := range 2 {
		src := fmt.Sprintf("%s/part%d", corpus, s)
		own := make([][]string, speakers)
		for k := range own {
			for j := range 6 {
				own[k] = append(own[k], fmt.Sprintf("%s%d%s%d", corpus[:2], s, string(rune('a'+k)), j))
			}
		}
		for c := range convs {
			turn := int32(0)
			for range 6 {
				for _, k := range []int{c % speakers, (c + 1) % speakers, (c + 3) % speakers} {
					w := make([]string, 12)
					for j := range w {
						switch rng.IntN(4) {
						case 0:
							w[j] = own[k][rng.IntN(len(own[k]))]
						case 1:
							w[j] = register[rng.IntN(len(register))]
						default:
							w[j] = common[rng.IntN(len(common))]
						}
					}
					out = append(out, data.Utterance{Source: src, ConversationID: fmt.Sprintf("c%02d", c), Turn: turn,
						Speaker: fmt.Sprintf("%s-%d-%d", corpus, s, k), Text: strings.Join(w, " ")})
					turn++
				}
			}
		}
	}
	return out
}

// transferInputs are three small synthetic corpora of three registers.
func transferInputs() table2.Inputs {
	var utts []data.Utterance
	utts = append(utts, transferCorpus(11, "old", oldRegister)...)
	utts = append(utts, transferCorpus(12, "new", newRegister)...)
	utts = append(utts, transferCorpus(13, "mix", mixRegister)...)
	return table2.Inputs{Name: "synthetic", Utterances: utts}
}

// transferRequest is the transfer preset's rows on the small corpora,
// with a short training.
func transferRequest() table2.Request {
	return table2.Request{Preset: "transfer", Machine: transferMachine,
		Settings: map[string]string{"ngram-metric_ft.epochs": "2", "pairs.allow_empty_splits": "true"}}
}

func TestTransferPlanAndRun(t *testing.T) {
	ctx := context.Background()
	in := transferInputs()
	plan, err := table2.Resolve(ctx, transferRequest(), in)
	if err != nil {
		t.Fatal(err)
	}
	tp := plan.Transfer
	if tp == nil || !slices.Equal(tp.Corpora, []string{"mix", "new", "old"}) || !slices.Equal(tp.Rows, []string{"ngram-metric_ft"}) {
		t.Fatalf("transfer plan %+v", tp)
	}
	if plan.Estimate.Transfer != tp || !(tp.EstimatedSeconds > 0) {
		t.Fatalf("the estimate does not carry the folds: %+v", plan.Estimate.Transfer)
	}
	for _, f := range tp.Folds {
		if slices.Contains(f.TrainedOn, f.HeldOut) || len(f.TrainedOn) != 2 {
			t.Fatalf("fold %+v", f)
		}
	}
	ckpt := t.TempDir()
	plan.Config.CheckpointDir = ckpt
	res, err := table2.Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transfer
	if tr == nil {
		t.Fatal("no transfer result")
	}
	b, _ := json.MarshalIndent(tr, "", " ")
	t.Logf("%s", b)
	_ = os.WriteFile(filepath.Join(os.TempDir(), "transfer-test.json"), b, 0o644)
	_ = verifier.CalibrationHeldOut
	_ = strings.Join
}

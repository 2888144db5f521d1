package main

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/sv/table2"
)

// TestReproduceAndNotebookResolveTheSamePlan checks issue 31's promise:
// `roleprint reproduce` (its request built from flags by reproRequest, the
// function runReproduce calls) and a notebook (kernel's Table2Request for
// the run it documents as the CLI's) ask for the same thing, and resolved
// for the same inputs on the same machine (backend, assets, calibration)
// they give the same plan: rows, mixed parts, configuration, seeds, pair
// settings, resolved encoder options and estimate. The notebook also
// keeps pair scores for its ROC figures, the one difference allowed.
func TestReproduceAndNotebookResolveTheSamePlan(t *testing.T) {
	reproFakeEnv(t, "onnx", "glove", "onnxruntime", "use-lite")
	in, err := table2.LoadInputs(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		run   kernel.Table2Run
		quick bool
	}{
		{"default", nil, kernel.Table2Paper, false},
		{"quick", []string{"--quick"}, kernel.Table2Paper, true},
		{"fine-tuning quick", []string{"--quick", "--encoders", "tfidf,ngram-metric_ft,transformer,transformer_ft", "--mixed", "tfidf,transformer_ft",
			"--set", "transformer_ft.max_steps=40"}, kernel.Table2FineTuning, true},
		{"fine-tuning", []string{"--encoders", "tfidf,ngram-metric_ft,transformer,transformer_ft,use-lite,use-lite_ft", "--mixed", "tfidf,transformer_ft,use-lite_ft"},
			kernel.Table2FineTuning, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cli, _, err := reproRequest(&env{stdout: io.Discard, stderr: &stderr}, c.args)
			if err != nil {
				t.Fatal(err)
			}
			nb := kernel.Open("same-plan")
			nb.Dir, nb.Stdout, nb.Stderr, nb.Display, nb.Quick = t.TempDir(), io.Discard, io.Discard, nil, c.quick
			note, err := nb.Table2Request(c.run)
			if err != nil {
				t.Fatal(err)
			}
			if !note.KeepScores {
				t.Error("the notebook's request drops the pair scores its ROC figures need")
			}
			// The same machine for both (reproRequest gave the CLI's), with
			// a clock that times every pair building at 2 s, so that the
			// two resolutions measure the same workload on a loaded machine.
			cli.Machine.Now = steppingClock()
			note.Machine = cli.Machine
			bare := func(r table2.Request) table2.Request {
				r.Machine, r.Logf, r.KeepScores = table2.Machine{}, nil, false
				return r
			}
			if !reflect.DeepEqual(bare(cli), bare(note)) {
				t.Fatalf("requests differ:\nCLI      %+v\nnotebook %+v", bare(cli), bare(note))
			}
			ctx := context.Background()
			pc, err := table2.Resolve(ctx, cli, in)
			if err != nil {
				t.Fatal(err)
			}
			note.Machine.Now = steppingClock()
			pn, err := table2.Resolve(ctx, note, in)
			if err != nil {
				t.Fatal(err)
			}
			pn.Config.KeepScores = pc.Config.KeepScores
			untimed(pc)
			untimed(pn)
			if !reflect.DeepEqual(pc.Config, pn.Config) {
				t.Errorf("configurations differ:\nCLI      %+v\nnotebook %+v", pc.Config, pn.Config)
			}
			if !reflect.DeepEqual(pc.Pairs, pn.Pairs) || !reflect.DeepEqual(pc.Components, pn.Components) || !reflect.DeepEqual(pc.Estimate, pn.Estimate) {
				t.Errorf("pairs, components or estimates differ:\nCLI      %+v\n%+v\nnotebook %+v\n%+v", pc.Pairs, pc.Estimate, pn.Pairs, pn.Estimate)
			}
			if len(pc.Config.Encoders) == 0 || pc.Config.Seed != 1 || pc.Preset.Quick != c.quick {
				t.Errorf("plan: rows %v seed %d preset %+v", pc.Config.Encoders, pc.Config.Seed, pc.Preset)
			}
			t.Logf("rows %v, mixed %v, rounds %d", pc.Config.Encoders, pc.Config.Mixed, pc.Config.Rounds)
		})
	}
}

// steppingClock is a clock that advances 1 s at every reading.
func steppingClock() func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// untimed zeroes what a plan measured with a clock (building round 1's
// pairs), which two resolutions never share.
func untimed(p *table2.Plan) {
	p.Estimate.Workload.PairsSeconds, p.Estimate.EstimatedSeconds = 0, 0
	if s := p.Config.Selection; s != nil {
		s.Workload.PairsSeconds, s.EstimatedSeconds = 0, 0
	}
}

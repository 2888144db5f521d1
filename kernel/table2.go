package kernel

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/internal/options"
	_ "github.com/roleprint/roleprint/sv/evaluate" // the held-out evaluator of a run's transfer folds (preset "transfer")
	"github.com/roleprint/roleprint/sv/table2"
)

// Table2Run declares a notebook's Table 2 experiment, so that a cell names
// it instead of building a config: the preset, the rows, extra settings,
// and what changes in quick mode. Notebooks share these values (Table2Paper,
// Table2FineTuning), so two notebooks asking for the same run share one
// cached result.
type Table2Run struct {
	// Name names the run in progress bars and cache keys ("table2").
	Name string
	// Preset is the sv preset; "" means table2.DefaultPreset, and quick mode
	// always uses "quick" (table2.Presets).
	Preset string
	// Encoders and Mixed are the rows (table2.Request's); nil means the
	// preset's, else the rows this machine affords for these corpora, as
	// `roleprint reproduce` chooses them. Rows named here run even in
	// quick mode.
	Encoders, Mixed []string
	// Set holds settings as --set writes them ("enc.key=value;...").
	Set string
	// QuickEncoders and QuickMixed replace Encoders and Mixed in quick mode
	// when not nil (an empty list: no mixed row); QuickSet replaces Set
	// when not empty.
	QuickEncoders, QuickMixed []string
	QuickSet                  string
	// QuickEmbedded runs quick mode on the embedded Shakespeare only (with
	// table2.EmbeddedPairConfig) instead of every available paper corpus.
	QuickEmbedded bool
}

// Table2Paper is the run of notebooks 02 and 07: `roleprint reproduce`'s
// default (the cpu preset and this machine's default rows, chosen as the
// CLI chooses them, see Table2Request) on the paper corpora that are
// available.
var Table2Paper = Table2Run{Name: "table2"}

// Table2FineTuning is notebook 03's transformer route: TF-IDF and the
// default fine-tuned row (ngram-metric_ft, run by Table2NgramMetric with
// the same settings, so its round checkpoints are reused) beside the
// transformer and USE-Lite, untrained and fine-tuned, with their mixed
// row; in quick mode the transformer only, trained 40 steps, on the
// embedded corpus.
var Table2FineTuning = Table2Run{
	Name:          "table2-ft",
	Encoders:      []string{"tfidf", "ngram-metric_ft", "transformer", "transformer_ft", "use-lite", "use-lite_ft"},
	Mixed:         []string{"tfidf", "transformer_ft", "use-lite_ft"},
	QuickEncoders: []string{"tfidf", "ngram-metric_ft", "transformer", "transformer_ft"},
	QuickMixed:    []string{"tfidf", "transformer_ft"},
	QuickSet:      "transformer_ft.max_steps=40",
	QuickEmbedded: true,
}

// Table2Plan is a Table2Run resolved for this notebook (table2.Resolve):
// the configuration, pairs, rows and estimate, as `roleprint reproduce`
// resolves them, and the names of the corpora it runs on.
type Table2Plan struct {
	Run Table2Run
	*table2.Plan
	Corpora []string
}

// Table2Request is the table2.Request run asks for: the request
// `roleprint reproduce` builds from its flags for the same run (quick
// mode is --quick; Encoders, Mixed and Set are --encoders, --mixed and
// --set), with the pair scores kept for ROC figures. Resolving it for the
// same inputs on the same machine gives the CLI's plan: the same rows,
// configuration and seeds.
func (nb *Notebook) Table2Request(run Table2Run) (table2.Request, error) {
	req := table2.Request{Preset: run.Preset, Encoders: slices.Clone(run.Encoders), Mixed: slices.Clone(run.Mixed), KeepScores: true,
		Logf: func(format string, args ...any) { nb.Note(format, args...) }}
	set := run.Set
	if nb.Quick {
		req.Preset = "quick"
		if run.QuickEncoders != nil {
			req.Encoders = slices.Clone(run.QuickEncoders)
		}
		if run.QuickMixed != nil {
			req.Mixed = slices.Clone(run.QuickMixed)
		}
		if run.QuickSet != "" {
			set = run.QuickSet
		}
	}
	var err error
	if req.Settings, err = options.Parse(set); err != nil {
		return req, nb.Report(fmt.Errorf("%s: %w", run.Name, err))
	}
	if len(req.Settings) == 0 {
		req.Settings = nil // unset, as in the CLI's request
	}
	return req, nil
}

// Table2Inputs returns the corpora run uses: the embedded Shakespeare in
// quick mode when run.QuickEmbedded is set (table2.LoadInputs with no
// files, as `roleprint reproduce` without files), else every available
// paper corpus (PaperUtterances, imported once), and their names.
func (nb *Notebook) Table2Inputs(ctx context.Context, run Table2Run) (table2.Inputs, []string, error) {
	if nb.Quick && run.QuickEmbedded {
		in, err := table2.LoadInputs(nil)
		if err != nil {
			return in, nil, nb.Report(err)
		}
		return in, []string{corpus.DefaultName}, nil
	}
	start := time.Now()
	utts, names, err := nb.PaperUtterances(ctx)
	if err != nil {
		return table2.Inputs{}, nil, err
	}
	return table2.Inputs{Name: strings.Join(names, ", "), Utterances: utts, LoadSeconds: time.Since(start).Seconds()}, names, nil
}

// PlanTable2 resolves run for this notebook's corpora on this machine
// with table2.Resolve, from the request Table2Request builds: the rows
// `roleprint reproduce` would choose here (measured workload, calibrated
// costs), the preset and the run's settings.
func (nb *Notebook) PlanTable2(ctx context.Context, run Table2Run) (*Table2Plan, error) {
	req, err := nb.Table2Request(run)
	if err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, nb.Report(fmt.Errorf("%s: %w", run.Name, err))
	}
	in, names, err := nb.Table2Inputs(ctx, run)
	if err != nil {
		return nil, err
	}
	p, err := table2.Resolve(ctx, req, in)
	if err != nil {
		return nil, nb.Report(fmt.Errorf("%s: %w", run.Name, err))
	}
	return &Table2Plan{Run: run, Plan: p, Corpora: names}, nil
}

// table2Dir is where Table 2 results and checkpoints are kept, shared by
// the notebooks of one output root (so 07 reuses 02's run).
func (nb *Notebook) table2Dir() string { return filepath.Join(filepath.Dir(nb.Dir), "table2") }

// table2Checkpoints is the folder RunTable2 checkpoints every (round, row)
// in and NgramMetricWeights reads trained weights from: one per mode, as
// Memo keeps cache and cache-quick apart, so a quick run's short training
// (transformer_ft at 40 steps) never meets a full run's plan in one
// folder (which the trainer refuses as a checkpoint of another plan).
func (nb *Notebook) table2Checkpoints() string {
	if nb.Quick {
		return filepath.Join(nb.table2Dir(), "checkpoints-quick")
	}
	return filepath.Join(nb.table2Dir(), "checkpoints")
}

// RunTable2 runs the experiment run declares, once: the result is cached
// (Memo) under the output root's table2/ folder by the resolved plan (its
// configuration without the timings of the selection, its pairs and
// corpora), so later cells and other notebooks asking for the same run
// load it. The run shows a progress bar, prints the runner's notes, and
// checkpoints every (round, encoder) there so an interrupted run resumes.
// The result keeps its pair scores (Config.KeepScores) for ROC
// figures.
func (nb *Notebook) RunTable2(ctx context.Context, run Table2Run) (*table2.Result, error) {
	p, err := nb.PlanTable2(ctx, run)
	if err != nil {
		return nil, err
	}
	shared := *nb
	shared.Dir = nb.table2Dir()
	keyed := p.Config
	keyed.Selection = nil // its estimates hold this run's timings; the rows it chose are in Encoders and Mixed
	key := Key(run.Name, keyed, p.Pairs, p.Corpora, len(p.Inputs.Utterances))
	return Memo(&shared, key, func() (*table2.Result, error) {
		bar := nb.Progress("Table 2 (" + run.Name + ")")
		defer bar.Done()
		cfg := &p.Config
		cfg.Progress = bar.Stage
		cfg.CheckpointDir = nb.table2Checkpoints()
		cfg.Logf = func(format string, args ...any) { nb.Note(format, args...) }
		return table2.Run(ctx, p.Plan)
	})
}

// Table2Summary prints what a finished run was: its rows, time and
// rounds, the rows it skipped and why, and its notes.
func (nb *Notebook) Table2Summary(t *table2.Result) {
	nb.Printf("%d rows in %.0f s over %d round(s); preset %s\n", len(t.Rows), t.Seconds, len(t.Rounds), orNone(t.Config.Preset))
	for _, s := range t.Skipped {
		nb.Printf("skipped %s: %s\n", s.Encoder, s.Reason)
	}
	nb.Notes(t.Notes)
}

// Table2Timing is one (round, encoder) of a run with where its time went.
type Table2Timing struct {
	Round   int     `json:"round"`
	Encoder string  `json:"encoder"`
	Backend string  `json:"backend"`
	Dim     int     `json:"dim"`
	FitS    float64 `json:"fit_s"`
	TrainS  float64 `json:"train_s"`
	EmbedS  float64 `json:"embed_s"`
	TotalS  float64 `json:"total_s"`
	Resumed bool    `json:"resumed"`
}

// Table2Timings lists every (round, encoder) of t with its timing, for
// TableOf.
func Table2Timings(t *table2.Result) []Table2Timing {
	out := make([]Table2Timing, 0, len(t.PerRound))
	for _, r := range t.PerRound {
		out = append(out, Table2Timing{Round: r.Round, Encoder: r.Encoder, Backend: r.Backend, Dim: r.Dim,
			FitS: r.Timing.FitS, TrainS: r.Timing.TrainS, EmbedS: r.Timing.EmbedS, TotalS: r.Timing.TotalS, Resumed: r.Resumed})
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

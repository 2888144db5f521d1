package kernel

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
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
	// Encoders and Mixed are the rows; nil means the preset's, else the
	// rows this machine affords (table2.SelectDefaultRows), as `roleprint
	// reproduce` runs them. Rows named here run even in quick mode.
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
// default (the cpu preset and this machine's default rows) on the paper
// corpora that are available.
var Table2Paper = Table2Run{Name: "table2"}

// Table2FineTuning is notebook 03's run: TF-IDF beside the transformer
// and USE-Lite, untrained and fine-tuned, with their mixed row; in quick
// mode the transformer only, trained 40 steps, on the embedded corpus.
var Table2FineTuning = Table2Run{
	Name:          "table2-ft",
	Encoders:      []string{"tfidf", "transformer", "transformer_ft", "use-lite", "use-lite_ft"},
	Mixed:         []string{"tfidf", "transformer_ft", "use-lite_ft"},
	QuickEncoders: []string{"tfidf", "transformer", "transformer_ft"},
	QuickMixed:    []string{"tfidf", "transformer_ft"},
	QuickSet:      "transformer_ft.max_steps=40",
	QuickEmbedded: true,
}

// Table2Plan is a Table2Run resolved for this notebook: the configuration,
// the pair configuration and the corpora it runs on.
type Table2Plan struct {
	Run     Table2Run
	Config  table2.Table2Config
	Pairs   pairs.PairConfig
	Corpora []string

	utts []data.Utterance
}

// PlanTable2 resolves run: the preset over the default rows, the run's
// rows and settings, and the corpora (imported once, see PaperUtterances).
func (nb *Notebook) PlanTable2(ctx context.Context, run Table2Run) (*Table2Plan, error) {
	name := run.Preset
	if name == "" {
		name = table2.DefaultPreset
	}
	encoders, mixed, set := run.Encoders, run.Mixed, run.Set
	if nb.Quick {
		name = "quick"
		if run.QuickEncoders != nil {
			encoders = run.QuickEncoders
		}
		if run.QuickMixed != nil {
			mixed = run.QuickMixed
		}
		if run.QuickSet != "" {
			set = run.QuickSet
		}
	}
	preset, err := table2.PresetNamed(name)
	if err != nil {
		return nil, nb.Report(err)
	}
	env, err := table2.DetectRowEnvironment("")
	if err != nil {
		return nil, nb.Report(err)
	}
	p := &Table2Plan{Run: run, Config: table2.Table2ConfigFor(table2.SelectDefaultRows(env, preset.Quick)), Pairs: pairs.DefaultPairConfig()}
	embedded := nb.Quick && run.QuickEmbedded
	if embedded {
		p.Pairs = table2.EmbeddedPairConfig(p.Pairs)
	}
	if _, err := preset.Apply(&p.Config, &p.Pairs); err != nil {
		return nil, nb.Report(err)
	}
	if encoders != nil {
		p.Config.Encoders = slices.Clone(encoders)
		p.Config.Explicit = slices.Clone(encoders)
		p.Config.Selection = nil
	}
	if mixed != nil {
		p.Config.Mixed = slices.Clone(mixed)
	}
	if p.Config.Settings, err = options.Parse(set); err != nil {
		return nil, nb.Report(fmt.Errorf("%s: %w", run.Name, err))
	}
	p.Config.KeepScores = true
	if _, err := p.Config.Validate(); err != nil {
		return nil, nb.Report(err)
	}
	if embedded {
		if p.utts, err = corpus.Default(); err != nil {
			return nil, nb.Report(err)
		}
		p.Corpora = []string{corpus.DefaultName}
		return p, nil
	}
	if p.utts, p.Corpora, err = nb.PaperUtterances(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// table2Dir is where Table 2 results and checkpoints are kept, shared by
// the notebooks of one output root (so 07 reuses 02's run).
func (nb *Notebook) table2Dir() string { return filepath.Join(filepath.Dir(nb.Dir), "table2") }

// RunTable2 runs the experiment run declares, once: the result is cached
// (Memo) under the output root's table2/ folder by the resolved plan, so
// later cells and other notebooks asking for the same run load it. The
// run shows a progress bar, prints the runner's notes, and checkpoints
// every (round, encoder) there so an interrupted run resumes. The result
// keeps its pair scores (Table2Config.KeepScores) for ROC figures.
func (nb *Notebook) RunTable2(ctx context.Context, run Table2Run) (*table2.Table2, error) {
	p, err := nb.PlanTable2(ctx, run)
	if err != nil {
		return nil, err
	}
	shared := *nb
	shared.Dir = nb.table2Dir()
	key := Key(run.Name, p.Config, p.Pairs, p.Corpora, len(p.utts))
	return Memo(&shared, key, func() (*table2.Table2, error) {
		bar := nb.Progress("Table 2 (" + run.Name + ")")
		defer bar.Done()
		cfg := p.Config
		cfg.Progress = bar.Stage
		cfg.CheckpointDir = filepath.Join(shared.Dir, "checkpoints")
		cfg.Logf = func(format string, args ...any) { nb.Note(format, args...) }
		return table2.RunTable2(ctx, cfg, table2.PairsFrom(p.utts, p.Pairs))
	})
}

// Table2Summary prints what a finished run was: its rows, time and
// rounds, the rows it skipped and why, and its notes.
func (nb *Notebook) Table2Summary(t *table2.Table2) {
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
func Table2Timings(t *table2.Table2) []Table2Timing {
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

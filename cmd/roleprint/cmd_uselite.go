package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/uselite" // registers the use-lite encoder and setup step
)

func init() {
	register(&command{
		Name:    "uselite",
		Summary: "Universal Sentence Encoder Lite tools: `uselite bench` (sentences/s), `uselite tokenize`",
		Run:     runUseLite,
	})
}

func runUseLite(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("usage: roleprint uselite bench|tokenize [flags] [FILE] (see `roleprint uselite bench -h`)")
	}
	switch args[0] {
	case "bench":
		return runUseLiteBench(ctx, e, args[1:])
	case "tokenize":
		return runUseLiteTokenize(e, args[1:])
	}
	return usagef("unknown uselite verb %q: use bench or tokenize", args[0])
}

// useLiteModel loads the model from --model-dir, or the installed one.
func useLiteModel(dir string) (*uselite.Model, error) {
	if dir != "" {
		return uselite.Load(dir)
	}
	return uselite.Default()
}

// useLiteBenchOutput is the --json object of `roleprint uselite bench`.
type useLiteBenchOutput struct {
	Backend backend.Info         `json:"backend"`
	Source  string               `json:"source"`
	Result  *uselite.BenchResult `json:"result"`
}

// runUseLiteBench measures embedding throughput: sentences from FILE (one
// per line) or, by default, the embedded Shakespeare corpus.
func runUseLiteBench(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "uselite bench", "[FILE]")
	backendName := backend.AddFlag(fs)
	n := fs.Int("sentences", 2048, "sentences per pass (taken from the input, repeated when it has fewer)")
	batch := fs.Int("batch", 64, "sentences per graph call")
	passes := fs.Int("passes", 1, "timed passes (after one warm-up pass that compiles the graphs)")
	modelDir := fs.String("model-dir", "", "folder with model.json, shards and vocab.json (default: the installed `roleprint setup use-lite` copy)")
	asJSON := fs.Bool("json", false, "print one JSON object {backend, source, result} (keys in docs/use-lite.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("expected at most one FILE, got %d", fs.NArg())
	}
	if *n < 1 || *batch < 1 || *passes < 1 {
		return usagef("--sentences, --batch and --passes must be positive")
	}
	var texts []string
	source := "embedded Shakespeare corpus"
	if fs.NArg() == 1 {
		var err error
		if texts, err = embedReadLines(fs.Arg(0), e); err != nil {
			return err
		}
		source = fs.Arg(0)
	} else {
		utts, err := corpus.Default()
		if err != nil {
			return err
		}
		for _, u := range utts {
			texts = append(texts, u.Text)
		}
	}
	if len(texts) == 0 {
		return fmt.Errorf("%s: no sentences", source)
	}
	for len(texts) < *n {
		texts = append(texts, texts[:min(len(texts), *n-len(texts))]...)
	}
	texts = texts[:*n]
	info, err := backend.Describe(*backendName)
	if err != nil {
		return err
	}
	m, err := useLiteModel(*modelDir)
	if err != nil {
		return err
	}
	e.Logf("uselite bench: %d sentences from %s on %s, batch %d...", len(texts), source, info.Name, *batch)
	r, err := uselite.Bench(ctx, m, uselite.BenchConfig{Backend: info.Name, Texts: texts, BatchSize: *batch, Passes: *passes})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(useLiteBenchOutput{Backend: info, Source: source, Result: r})
	}
	fmt.Fprintf(e.Stdout(), "backend: %s\nsource: %s\n", info, source)
	fmt.Fprintf(e.Stdout(), "%d sentences (mean %.1f pieces), batch %d: %.1f sentences/s, %.0f pieces/s (warm-up pass %.1f s; %d CPUs, load %s)\n",
		r.Sentences, r.MeanPieces, r.BatchSize, r.SentencesPerSecond, r.PiecesPerSecond, r.WarmupSeconds, r.CPUs, r.LoadAverage)
	return nil
}

// useLiteTokenizeLine is one line of `roleprint uselite tokenize --json`.
type useLiteTokenizeLine struct {
	Text   string   `json:"text"`
	IDs    []int    `json:"ids"`
	Pieces []string `json:"pieces"`
}

// runUseLiteTokenize prints the SentencePiece segmentation of each line of
// FILE ("-": stdin): the pieces separated by spaces, or with --ids the ids.
func runUseLiteTokenize(e *env, args []string) error {
	fs := newFlags(e, "uselite tokenize", "FILE")
	ids := fs.Bool("ids", false, "print ids instead of pieces")
	modelDir := fs.String("model-dir", "", "folder with vocab.json (default: the installed copy)")
	asJSON := fs.Bool("json", false, "print one JSON object {lines: [{text, ids, pieces}]}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("expected one FILE (one sentence per line; - for stdin)")
	}
	lines, err := embedReadLines(fs.Arg(0), e)
	if err != nil {
		return err
	}
	m, err := useLiteModel(*modelDir)
	if err != nil {
		return err
	}
	out := make([]useLiteTokenizeLine, len(lines))
	for i, line := range lines {
		l := useLiteTokenizeLine{Text: line, IDs: m.Tokenizer.Encode(line)}
		for _, id := range l.IDs {
			l.Pieces = append(l.Pieces, m.Tokenizer.Piece(id))
		}
		out[i] = l
	}
	if *asJSON {
		return e.JSON(map[string]any{"lines": out})
	}
	for _, l := range out {
		if *ids {
			fmt.Fprintln(e.Stdout(), strings.Trim(fmt.Sprint(l.IDs), "[]"))
		} else {
			fmt.Fprintln(e.Stdout(), strings.Join(l.Pieces, " "))
		}
	}
	return nil
}

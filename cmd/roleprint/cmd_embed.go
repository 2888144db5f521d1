package main

import (
	"bufio"
	"context"
	"fmt"
	"github.com/roleprint/roleprint/data/importers"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers the baseline encoders
)

func init() {
	register(&command{
		Name:    "embed",
		Summary: "embed utterances (one per line) with a registered encoder",
		Run:     runEmbed,
	})
}

// embedOutput is the --json output of `roleprint embed`.
type embedOutput struct {
	Encoder string      `json:"encoder"`
	Dim     int         `json:"dim"`
	Count   int         `json:"count"`
	Vectors [][]float32 `json:"vectors"`
}

// runEmbed reads one utterance per line from TEXTFILE ("-" for stdin) and
// prints one vector per utterance: space-separated values per line, or
// with --json one object {encoder, dim, count, vectors}. Encoders that must
// be fitted (tfidf, liwc, pos, glove-sif) are fitted on the input itself,
// or on --fit FILE, of at least minFitTexts lines for statistics
// encoders; a run whose vectors are all zero fails.
func runEmbed(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "embed", "TEXTFILE")
	name := fs.String("encoder", "", "encoder name (required); one of: "+strings.Join(sv.EncoderNames(), ", "))
	asJSON := fs.Bool("json", false, "print one JSON object {encoder, dim, count, vectors}")
	fitFile := fs.String("fit", "", "fit statistics encoders (tfidf, liwc, lsm, pos, glove-sif) on this file's lines, at least 10 (default: on the input itself)")
	set := settingsFlag(fs, "set", `encoder settings "key=value;key2=value2" (see docs/reproduce.md)`)
	backend := fs.String("backend", "", "compute backend for GoMLX encoders (go, onnx, xla:cuda); default: automatic")
	batch := fs.Int("batch", 0, "texts per batch (0: the encoder's default)")
	verifierDir := fs.String("verifier", "", "embed with a saved verifier bundle (OUT/verifier) instead of --encoder")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *verifierDir != "" {
		return embedWithVerifier(ctx, e, *verifierDir, *backend, *batch, *asJSON, fs.Args())
	}
	if *name == "" {
		return usagef("--encoder is required (one of: %s)", strings.Join(sv.EncoderNames(), ", "))
	}
	if fs.NArg() != 1 {
		return usagef("expected exactly one TEXTFILE (one utterance per line; - for stdin), got %d", fs.NArg())
	}
	settings, err := sv.ParseSettings(*set)
	if err != nil {
		return usagef("--set: %v", err)
	}
	if _, ft := sv.SplitFineTuned(*name); ft {
		return usagef("encoder %s: embed uses untrained encoders; fine-tune with `roleprint train` and embed with --verifier OUT/verifier (or --set weights=OUT)", *name)
	}
	enc, err := sv.NewEncoder(*name, sv.EncoderOptions{Backend: *backend, BatchSize: *batch, Settings: settings, Logf: e.Logf})
	if err != nil {
		return err
	}
	if c, ok := enc.(sv.Closer); ok {
		defer c.Close()
	}
	texts, err := embedReadLines(fs.Arg(0), e)
	if err != nil {
		return err
	}
	if len(texts) == 0 {
		return fmt.Errorf("%s: no utterances (expected one utterance per line)", fs.Arg(0))
	}
	if f, ok := enc.(sv.Fitter); ok {
		fitTexts, from := texts, fs.Arg(0)
		if *fitFile != "" {
			if fitTexts, err = embedReadLines(*fitFile, e); err != nil {
				return err
			}
			from = *fitFile
		}
		if _, network := enc.(sv.Trainable); !network && len(fitTexts) < minFitTexts {
			return fmt.Errorf("encoder %s is fitted on its texts' statistics (document frequencies, means, spreads), and %s holds %d: it needs at least %d; "+
				"give more lines, or --fit FILE with a corpus of the same kind", *name, from, len(fitTexts), minFitTexts)
		}
		if err := f.Fit(ctx, fitTexts); err != nil {
			return err
		}
	}
	report, finish := e.progress("embed " + *name)
	vecs, err := enc.Encode(ctx, texts, report)
	finish()
	if err != nil {
		return err
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("encoder %s returned %d vectors for %d utterances", *name, len(vecs), len(texts))
	}
	if allZero(vecs) {
		return fmt.Errorf("encoder %s gave an all-zero vector for every one of the %d utterances of %s: nothing to compare (fit it on more texts with --fit FILE, or check its --set)",
			*name, len(texts), fs.Arg(0))
	}
	return embedPrint(e, *name, enc.Dim(), vecs, *asJSON)
}

// minFitTexts is the fewest texts embed fits a statistics encoder on: one
// whose features come from its fit texts (tfidf's document frequencies,
// the z-scores of liwc, lsm and pos, glove-sif's word weights, and the
// mean each centres on). From a handful of lines those statistics are the
// lines themselves (two lines give two opposite or zero vectors), so
// embed refuses instead of printing vectors that mean nothing. Trainable
// networks (sv.Trainable) are left out: their features come from their
// weights.
const minFitTexts = 10

// allZero reports whether every vector is zero in every dimension.
func allZero(vecs [][]float32) bool {
	for _, v := range vecs {
		for _, x := range v {
			if x != 0 {
				return false
			}
		}
	}
	return true
}

// embedWithVerifier embeds the lines of the one file in args with the
// verifier bundle in dir (its state as saved: nothing is fitted).
func embedWithVerifier(ctx context.Context, e *env, dir, backend string, batch int, asJSON bool, args []string) error {
	if len(args) != 1 {
		return usagef("expected exactly one TEXTFILE (one utterance per line; - for stdin), got %d", len(args))
	}
	texts, err := embedReadLines(args[0], e)
	if err != nil {
		return err
	}
	if len(texts) == 0 {
		return fmt.Errorf("%s: no utterances (expected one utterance per line)", args[0])
	}
	enc, done, err := verifierEncoder(ctx, e, dir, backend, batch)
	if err != nil {
		return err
	}
	defer done()
	report, finish := e.progress("embed " + enc.Name())
	vecs, err := enc.Encode(ctx, texts, report)
	finish()
	if err != nil {
		return err
	}
	return embedPrint(e, enc.Name(), enc.Dim(), vecs, asJSON)
}

// embedPrint prints vectors: one line of space-separated values each, or
// the --json object.
func embedPrint(e *env, name string, dim int, vecs [][]float32, asJSON bool) error {
	if asJSON {
		return e.JSON(embedOutput{Encoder: name, Dim: dim, Count: len(vecs), Vectors: vecs})
	}
	w := bufio.NewWriter(e.Stdout())
	for _, v := range vecs {
		for d, x := range v {
			if d > 0 {
				w.WriteByte(' ')
			}
			w.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
		}
		w.WriteByte('\n')
	}
	return w.Flush()
}

// embedReadLines reads one utterance per line through the importers'
// reading layer (so Latin-1 bytes, mojibake, UTF-16 and byte-order marks
// read as the corpus importers read them, and every tokenizer gets valid
// UTF-8); trailing blank lines are ignored, a blank line between
// utterances is an error naming it. A file must be a regular file of at
// most importers.MaxTextFile bytes; "-" reads standard input up to the
// same limit.
func embedReadLines(path string, e *env) ([]string, error) {
	var text string
	if path == "-" {
		b, err := io.ReadAll(io.LimitReader(os.Stdin, importers.MaxTextFile+1))
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		if text, err = importers.DecodeText("standard input", b, ""); err != nil {
			return nil, err
		}
	} else {
		var err error
		if text, err = importers.ReadTextFile(path, ""); err != nil {
			return nil, err
		}
	}
	var lines []string
	blank := 0
	n := 0
	for line := range strings.Lines(text) {
		n++
		line = strings.TrimRight(line, "\n")
		if len(line) > maxLineBytes {
			return nil, scanError(path, n, bufio.ErrTooLong, maxLineBytes)
		}
		if strings.TrimSpace(line) == "" {
			if blank == 0 {
				blank = n
			}
			continue
		}
		if blank != 0 {
			return nil, fmt.Errorf("%s:%d: empty line between utterances (expected one utterance per line)", path, blank)
		}
		lines = append(lines, line)
	}
	return lines, nil
}

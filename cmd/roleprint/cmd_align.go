package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/align"
	"github.com/roleprint/roleprint/sv"
)

func init() {
	register(&command{
		Name:    "align",
		Summary: "align a script to a timed ASR transcript (VoxRole): word timestamps, validation, two-speaker segments",
		Run:     runAlign,
	})
}

// alignJSON is the --json output of `roleprint align`.
type alignJSON struct {
	Script     string                `json:"script"`
	Transcript string                `json:"transcript"`
	Audio      string                `json:"audio"`
	Synthetic  *align.PerturbOptions `json:"synthetic"`
	Encoder    string                `json:"encoder"`
	Threshold  float64               `json:"threshold"`
	// Check says what validated the lines: VoxRole's MPNet ("mpnet"),
	// another encoder, or the lexical check (the offline fallback).
	Check alignCheckJSON `json:"check"`
	// Flagged are the aligned lines whose similarity with their transcript
	// span is below the threshold.
	Flagged      []alignFlagJSON      `json:"flagged"`
	Stats        align.Stats          `json:"stats"`
	Segments     int                  `json:"segments"`
	SegmentTurns int                  `json:"segment_turns"`
	Boundaries   *align.BoundaryScore `json:"boundaries"`
	Out          string               `json:"out"`
}

func runAlign(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "align", "SCRIPT [TRANSCRIPT]")
	asJSON := fs.Bool("json", false, "print one JSON object (see docs/persona.md)")
	threshold := fs.Float64("threshold", 0.8, "cosine a line needs with its transcript span to be valid")
	encName := fs.String("encoder", "hash-ngram", "encoder for validation: hash-ngram (built in) or a registered sv encoder (or use --check)")
	check := fs.String("check", "auto", "line validation: mpnet (VoxRole's MPNet, sentence-transformers/all-mpnet-base-v2 from the Hugging Face cache), lexical (hash-ngram vectors, the offline fallback), hf:ORG/NAME, or auto (mpnet when cached, else lexical)")
	backend := fs.String("backend", "", "compute backend for Hub encoders (go, onnx, xla:cuda); default: automatic")
	minTurns := fs.Int("min-turns", 3, "fewest turns of a two-speaker segment")
	maxGap := fs.Float64("max-gap", 10, "longest pause (s) inside a segment")
	band := fs.Int("band", 400, "half-width in words of the edit-distance band")
	out := fs.String("out", "", "write the full alignment (lines with times, segments) to this JSON file")
	synthetic := fs.Bool("synthetic", false, "no TRANSCRIPT: synthesize a perturbed timed transcript from SCRIPT and report how many sentence boundaries are recovered")
	seed := fs.Uint64("seed", 1, "with --synthetic, the perturbation seed")
	audio := fs.String("audio", "", "no TRANSCRIPT: transcribe this audio or video file (any format ffmpeg reads) through --asr-base-url, then align")
	rate := fs.Int("rate", 16000, "with --audio: sample rate of the mono WAV sent to the recogniser (16000 for Whisper; VoxRole resampled to 44100)")
	saveTranscript := fs.String("save-transcript", "", "with --audio: write the word-timed transcript JSON here (reusable as TRANSCRIPT)")
	asr := addASRFlags(fs)
	dec := addDecodeFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	want := 2
	if *synthetic || *audio != "" {
		want = 1
	}
	if *synthetic && *audio != "" {
		return usagef("give --synthetic or --audio, not both")
	}
	if fs.NArg() != want {
		return usagef("want %d file(s): SCRIPT%s", want, map[bool]string{true: "", false: " TRANSCRIPT"}[want == 1])
	}
	set := flagsSet(fs)
	if set["encoder"] && set["check"] {
		return usagef("--encoder and --check: give one")
	}
	checkName := *check
	if set["encoder"] {
		checkName = *encName
	}
	chk, encoderName, err := resolveAlignCheck(e, checkName)
	if err != nil {
		return err
	}
	enc, err := encoderByNameBackend(encoderName, *backend)
	if err != nil {
		return err
	}
	if c, ok := enc.(sv.Closer); ok {
		defer c.Close()
	}
	s, err := loadScripts(fs.Args()[:1], true)
	if err != nil {
		return err
	}
	var lines []align.Line
	for _, sc := range s.Scenes {
		for _, l := range sc.Lines {
			if !l.IsNarration() {
				lines = append(lines, align.Line{Speaker: l.Speaker, Text: l.Text, Scene: sc.ID})
			}
		}
	}
	res := alignJSON{Script: fs.Arg(0), Encoder: enc.Name(), Threshold: *threshold, Check: chk, Flagged: []alignFlagJSON{}}
	var words []align.Word
	var truth []align.Truth
	if *synthetic {
		po := align.DefaultPerturbOptions()
		po.Seed = *seed
		words, truth = align.Synthesize(lines, po)
		res.Synthetic = &po
	} else if *audio != "" {
		cfg, err := asr.config()
		if err != nil {
			return err
		}
		opts := dec.options()
		opts.Rate = *rate
		e.Logf("align: transcribing %s with %s at %s", *audio, cfg.Model, llm.RedactURL(cfg.BaseURL))
		t, err := transcribeAudio(ctx, cfg, *audio, opts)
		if err != nil {
			return err
		}
		for _, w := range t.Words {
			words = append(words, align.Word{Text: w.Word, Start: w.Start, End: w.End})
		}
		res.Audio, res.Transcript = *audio, *saveTranscript
		if *saveTranscript != "" {
			b, _ := json.MarshalIndent(t, "", "  ")
			if err := fsx.WriteFileAll(*saveTranscript, b, 0o644); err != nil {
				return err
			}
		}
	} else {
		res.Transcript = fs.Arg(1)
		if words, err = readTranscript(fs.Arg(1)); err != nil {
			return err
		}
	}
	a, err := align.Align(ctx, lines, words, align.Options{Encoder: enc, Threshold: *threshold, Band: *band})
	if err != nil {
		return err
	}
	for _, l := range a.LowSimilarity() {
		res.Flagged = append(res.Flagged, alignFlagJSON{Index: l.Index, Speaker: l.Speaker, Text: l.Text, Transcript: l.Transcript, Similarity: l.Similarity, Start: l.Start})
	}
	segs := align.Segments(a, align.SegmentOptions{MinTurns: *minTurns, MaxGap: *maxGap})
	res.Stats, res.Segments = a.Stats, len(segs)
	for _, sg := range segs {
		res.SegmentTurns += sg.Turns
	}
	if truth != nil {
		b := align.ScoreBoundaries(a, truth, words, 0.5)
		res.Boundaries = &b
	}
	if *out != "" {
		if err := writeAlignment(*out, a, segs); err != nil {
			return err
		}
		res.Out = *out
	}
	if *asJSON {
		return e.JSON(res)
	}
	w := e.Stdout()
	st := a.Stats
	fmt.Fprintf(w, "%d script lines, %d transcript words: %d matched, %d substituted, %d deleted, %d inserted (WER %.3f)\n",
		st.Lines, st.TranscriptWords, st.Matches, st.Substitutions, st.Deletions, st.Insertions, st.WordErrorRate)
	fmt.Fprintf(w, "%d of %d lines valid (cosine ≥ %.2f under %s%s); %d flagged below it; %d two-speaker segments of ≥ %d turns (%d turns)\n",
		st.ValidLines, st.Lines, *threshold, enc.Name(), map[bool]string{true: ", the lexical check: offline fallback", false: ""}[chk.OfflineFallback],
		len(res.Flagged), len(segs), *minTurns, res.SegmentTurns)
	for _, f := range res.Flagged {
		fmt.Fprintf(w, "  flagged line %d (%s, cosine %.3f): %q ~ %q\n", f.Index, f.Speaker, f.Similarity, f.Text, f.Transcript)
	}
	if res.Boundaries != nil {
		b := res.Boundaries
		fmt.Fprintf(w, "sentence boundaries recovered: %.2f%% exactly, %.2f%% within %.1f s (%d boundaries); deleted lines rejected %d/%d\n",
			100*b.ExactRate, 100*b.ToleranceRate, b.Tolerance, b.Boundaries, b.DeletedRejected, b.DeletedLines)
	}
	if *out != "" {
		fmt.Fprintf(w, "alignment: %s\n", *out)
	}
	return nil
}

// writeAlignment writes the aligned lines, the segments and the
// statistics to path as one JSON object.
func writeAlignment(path string, a *align.Alignment, segs []align.Segment) error {
	full := struct {
		Lines    []align.AlignedLine `json:"lines"`
		Segments []align.Segment     `json:"segments"`
		Stats    align.Stats         `json:"stats"`
	}{a.Lines, segs, a.Stats}
	b, err := json.MarshalIndent(full, "", "  ")
	if err != nil {
		return err
	}
	return fsx.WriteFileAll(path, b, 0o644)
}

// readTranscript reads timed words: JSON {"words": [...]}, {"segments":
// [{"words": [...]}]} or a bare list of {"word"|"text", "start", "end"};
// or TSV lines "start<TAB>end<TAB>word".
func readTranscript(path string) ([]align.Word, error) {
	b, err := fsx.ReadFile(path, fsx.MaxInput)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(path), ".json") || strings.HasPrefix(strings.TrimSpace(string(b)), "{") || strings.HasPrefix(strings.TrimSpace(string(b)), "[") {
		type jw struct {
			Word  string   `json:"word"`
			Text  string   `json:"text"`
			Start *float64 `json:"start"`
			End   *float64 `json:"end"`
		}
		var doc struct {
			Words    []jw `json:"words"`
			Segments []struct {
				Words []jw `json:"words"`
			} `json:"segments"`
		}
		var list []jw
		if err := json.Unmarshal(b, &list); err != nil {
			if err := json.Unmarshal(b, &doc); err != nil {
				return nil, fmt.Errorf("%s: %w (expected {\"words\": [{\"word\", \"start\", \"end\"}...]}, {\"segments\": [{\"words\": [...]}]} or a list of words)", path, err)
			}
			// verbose_json may carry the words twice (top level and per
			// segment): the top level wins.
			list = doc.Words
			if len(list) == 0 {
				for _, s := range doc.Segments {
					list = append(list, s.Words...)
				}
			}
		}
		var out []align.Word
		for i, w := range list {
			t := w.Word
			if t == "" {
				t = w.Text
			}
			if w.Start == nil || w.End == nil {
				return nil, fmt.Errorf("%s: word %d (%q) has no start or end time", path, i, t)
			}
			out = append(out, align.Word{Text: strings.TrimSpace(t), Start: *w.Start, End: *w.End})
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: no words", path)
		}
		return out, nil
	}
	var out []align.Word
	sc := newLineScanner(bufio.NewScanner(strings.NewReader(string(b))), maxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want start<TAB>end<TAB>word, got %q", path, n, line)
		}
		st, err1 := strconv.ParseFloat(f[0], 64)
		en, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			if n == 1 {
				continue // a header
			}
			return nil, fmt.Errorf("%s:%d: start %q and end %q must be seconds", path, n, f[0], f[1])
		}
		out = append(out, align.Word{Text: strings.Join(f[2:], " "), Start: st, End: en})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(path, n+1, err, maxLineBytes)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no words", path)
	}
	return out, nil
}

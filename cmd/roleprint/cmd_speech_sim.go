package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/speech"
	"github.com/roleprint/roleprint/speech/frontend"
	"github.com/roleprint/roleprint/speech/spkemb"
	"github.com/roleprint/roleprint/stats"
)

// speakerEmbedderFlags are the flags that choose a speaker-embedding model.
type speakerEmbedderFlags struct {
	name, window, file *string
}

func addSpeakerEmbedderFlags(fs *flag.FlagSet) speakerEmbedderFlags {
	return speakerEmbedderFlags{
		name: fs.String("embedder", "", "speaker-embedding model: hf:ORG/NAME[@REV] (an ONNX export in the Hugging Face cache, fetched by roleprint setup --model ORG/NAME); "+
			"default: MFCC statistics, the offline fallback"),
		window: fs.String("embedder-window", "hamming", "fbank window of the model: hamming (WeSpeaker) or povey (3D-Speaker, Kaldi)"),
		file:   fs.String("embedder-file", "", "the .onnx file inside the repository, when it holds several"),
	}
}

// open returns the chosen embedder (nil for the MFCC statistics) and a
// function releasing it.
func (f speakerEmbedderFlags) open() (speech.SpeakerEmbedder, func(), error) {
	v := strings.TrimSpace(*f.name)
	if v == "" || v == "mfcc" {
		return nil, func() {}, nil
	}
	ref, ok := strings.CutPrefix(v, spkemb.Scheme)
	if !ok {
		return nil, nil, usagef("--embedder %q: expected hf:ORG/NAME[@REVISION] (or nothing for the MFCC statistics)", v)
	}
	cfg := spkemb.DefaultConfig()
	cfg.Fbank.Window, cfg.File = *f.window, *f.file
	m, err := spkemb.FromHub(ref, cfg)
	if err != nil {
		return nil, nil, err
	}
	return m, m.Close, nil
}

// speechSimilarityOutput is the --json object of `speech similarity`.
type speechSimilarityOutput struct {
	Embedder       string             `json:"embedder"`
	Reference      string             `json:"reference"`
	Files          []speechSimilarity `json:"files"`
	MeanSimilarity *float64           `json:"mean_similarity"`
	Failed         int                `json:"failed"`
}

type speechSimilarity struct {
	File       string   `json:"file"`
	Similarity *float64 `json:"similarity,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// runSpeechSimilarity rates each file's voice against a reference voice:
// the cosine of their speaker embeddings (the SIM metric of TTS papers),
// with a neural speaker model or, by default, the MFCC statistics
// (standardised over the reference and the files, blocks weighed).
func runSpeechSimilarity(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech similarity", "FILES...")
	refPath := fs.String("reference", "", "the character's reference voice (audio file; required), e.g. the clip speech reference chose")
	asJSON := fs.Bool("json", false, `print {"embedder", "reference", "files": [{"file", "similarity"} or {"file", "error"}], "mean_similarity", "failed"}`)
	emb := addSpeakerEmbedderFlags(fs)
	dec := addDecodeFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *refPath == "" || fs.NArg() == 0 {
		return usagef("give --reference REF.wav and at least one file to rate")
	}
	embedder, closeFn, err := emb.open()
	if err != nil {
		return err
	}
	defer closeFn()
	opts := dec.options()
	opts.Rate = speech.DefaultRate
	embed := func(path string) ([]float64, error) {
		s, err := frontend.Decode(ctx, path, opts)
		if err != nil {
			return nil, err
		}
		if embedder != nil {
			return embedder.Embed(s)
		}
		return speech.Embed(s, speech.DefaultEmbedConfig())
	}
	ref, err := embed(*refPath)
	if err != nil {
		return fmt.Errorf("reference %s: %w", *refPath, err)
	}
	out := speechSimilarityOutput{Embedder: speech.MFCCStatsName, Reference: *refPath}
	if embedder != nil {
		out.Embedder = embedder.Name()
	}
	vecs := make([][]float64, fs.NArg())
	pool := [][]float64{ref}
	for i, p := range fs.Args() {
		if vecs[i], err = embed(p); err != nil {
			e.Logf("speech similarity: %s: %v", p, err)
			continue
		}
		pool = append(pool, vecs[i])
	}
	weigh := func(v []float64) []float64 { return v }
	if embedder == nil {
		st, err := speech.FitStandardizer(pool)
		if err != nil {
			return fmt.Errorf("speech similarity: the MFCC statistics need the reference and at least one readable file to standardise over: %w", err)
		}
		w := speech.DefaultEmbedConfig().BlockWeights
		weigh = func(v []float64) []float64 { return speech.WeighBlocks(st.Apply(v), w) }
	}
	r := weigh(ref)
	var sum float64
	var n int
	for i, p := range fs.Args() {
		item := speechSimilarity{File: p}
		if vecs[i] == nil {
			item.Error = "could not be read or embedded (see stderr)"
			out.Failed++
		} else {
			s := stats.Cosine(r, weigh(vecs[i]))
			item.Similarity = &s
			sum += s
			n++
		}
		out.Files = append(out.Files, item)
	}
	if n > 0 {
		m := sum / float64(n)
		out.MeanSimilarity = &m
	}
	if *asJSON {
		if err := e.JSON(out); err != nil {
			return err
		}
	} else {
		for _, f := range out.Files {
			if f.Similarity == nil {
				fmt.Fprintf(e.Stdout(), "%s\tFAILED\n", f.File)
			} else {
				fmt.Fprintf(e.Stdout(), "%s\t%.4f\n", f.File, *f.Similarity)
			}
		}
	}
	if out.Failed > 0 {
		return fmt.Errorf("speech similarity: %d of %d files failed", out.Failed, fs.NArg())
	}
	return nil
}

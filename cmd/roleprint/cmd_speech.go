package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/roleprint/roleprint/speech/frontend"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/speech"
)

func init() {
	register(&command{
		Name:    "speech",
		Summary: "acoustic features, character profiles, reference voices, Praat checks (features|profile|reference|validate|bench)",
		Run:     runSpeech,
	})
}

// speechVerbs are the sub-commands of `roleprint speech`.
var speechVerbs = []struct {
	name, summary string
	run           func(ctx context.Context, e *env, args []string) error
}{
	{"features", "per-file pitch, intensity, speaking rate and pauses of WAV files", runSpeechFeatures},
	{"profile", "per-character acoustic profiles (Low/Medium/High) of a corpus with audio", runSpeechProfile},
	{"reference", "each character's reference voice (highest mean speaker-embedding cosine)", runSpeechReference},
	{"similarity", "voice similarity (SIM) of files to a reference voice: speaker-embedding cosine", runSpeechSimilarity},
	{"validate", "compare with Praat's measurements (scripts/praat-measure.sh output)", runSpeechValidate},
	{"bench", "time the features on an hour of audio, beside Praat", runSpeechBench},
	{"convert", "decode audio/video (ffmpeg) to mono WAV at 16 kHz (or --rate 44100 for VoxRole's alignment), cached", runSpeechConvert},
	{"transcribe", "word-timed transcript from an OpenAI-compatible /v1/audio/transcriptions server (whisper.cpp, faster-whisper)", runSpeechTranscribe},
	{"tts", "speak the agent lines of a generated corpus through /v1/audio/speech (cascaded agents)", runSpeechTTS},
}

// runSpeech dispatches `roleprint speech VERB ...`.
func runSpeech(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.Stderr(), "usage: roleprint speech VERB [flags] ARGS...\n\nverbs:")
		for _, v := range speechVerbs {
			fmt.Fprintf(e.Stderr(), "  %-10s %s\n", v.name, v.summary)
		}
		if len(args) == 0 {
			return usagef("missing verb")
		}
		return nil
	}
	for _, v := range speechVerbs {
		if v.name == args[0] {
			return v.run(ctx, e, args[1:])
		}
	}
	names := make([]string, len(speechVerbs))
	for i, v := range speechVerbs {
		names[i] = v.name
	}
	return usagef("unknown speech verb %q (known: %s)", args[0], strings.Join(names, ", "))
}

// speechFeaturesOutput is the --json object of `speech features`: one
// entry per file in the order given, the features of the files that could
// be analysed and {"file", "error"} for those that could not.
type speechFeaturesOutput struct {
	Files  []any `json:"files"`
	Failed int   `json:"failed"`
}

// speechFileError is a files entry of a file that could not be analysed.
type speechFileError struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

func runSpeechFeatures(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech features", "FILES...")
	asJSON := fs.Bool("json", false, `print {"files": [...]} with one object of features per file`)
	rate := fs.Float64("rate", speech.DefaultRate, "analysis sample rate in Hz (0 = each file's own)")
	transcript := fs.String("transcript", "", "transcript text for words/s (applies to every file)")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "files analysed in parallel")
	floor := fs.Float64("pitch-floor", 75, "pitch floor in Hz")
	ceiling := fs.Float64("pitch-ceiling", 600, "pitch ceiling in Hz")
	averaging := fs.String("intensity-averaging", "energy", "how the mean intensity averages frames: energy, sones or dB")
	dec := addDecodeFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no WAV files given (roleprint speech features [--json] FILES...; MP3, FLAC, OGG, M4A and video go through ffmpeg)")
	}
	cfg := speech.DefaultConfig()
	cfg.Rate = *rate
	cfg.Pitch.Floor, cfg.Pitch.Ceiling = *floor, *ceiling
	switch *averaging {
	case "energy":
		cfg.Averaging = speech.AverageEnergy
	case "sones":
		cfg.Averaging = speech.AverageSones
	case "dB", "db":
		cfg.Averaging = speech.AverageDB
	default:
		return usagef("--intensity-averaging %q: want energy, sones or dB", *averaging)
	}
	files := fs.Args()
	out := make([]*speech.Features, len(files))
	errs := make([]error, len(files))
	report, finish := e.progress("speech features")
	var mu sync.Mutex
	done := 0
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if ctx.Err() != nil {
					errs[i] = ctx.Err()
					continue
				}
				out[i], errs[i] = frontend.AnalyzeAny(ctx, files[i], *transcript, cfg, dec.options())
				mu.Lock()
				done++
				report(done, len(files))
				mu.Unlock()
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	finish()
	if err := ctx.Err(); err != nil {
		return err
	}
	// One bad file does not hide the others: every file gets its entry,
	// the bad ones are named, and the exit status says something failed.
	res := speechFeaturesOutput{Files: make([]any, len(files))}
	var failed []string
	for i, err := range errs {
		if err != nil {
			res.Files[i] = speechFileError{File: files[i], Error: err.Error()}
			res.Failed++
			failed = append(failed, err.Error())
			continue
		}
		res.Files[i] = out[i]
	}
	var failure error
	if res.Failed > 0 {
		failure = fmt.Errorf("%d of %d files could not be analysed:\n  %s", res.Failed, len(files), strings.Join(failed, "\n  "))
	}
	if *asJSON {
		if err := e.JSON(res); err != nil {
			return err
		}
		return failure
	}
	tw := tabwriter.NewWriter(e.Stdout(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "file\tdur s\tF0 mean Hz\tmedian\tstd\tvoiced\tint dB\tsyl/s\tpause\t")
	for i, f := range out {
		if errs[i] != nil {
			fmt.Fprintf(tw, "%s\tFAILED\t\t\t\t\t\t\t\t\n", filepath.Base(files[i]))
			continue
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%s\t%s\t%s\t%.2f\t%.1f\t%.2f\t%.2f\t\n", filepath.Base(f.File), f.DurationS,
			speechNum(f.F0MeanHz, 1), speechNum(f.F0MedianHz, 1), speechNum(f.F0StdHz, 1), f.VoicedFraction, f.IntensityMeanDB,
			f.SpeakingRateSylS, f.PauseRatio)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return failure
}

// speechNum formats v with the given decimals, "-" when undefined.
func speechNum(v float64, decimals int) string {
	if v != v {
		return "-"
	}
	return fmt.Sprintf("%.*f", decimals, v)
}

// speechCorpusFlags adds the flags shared by `speech profile` and `speech
// reference` and returns a function that reads the corpus and builds the
// configuration.
func speechCorpusFlags(e *env, name string) (*flag.FlagSet, func() ([]data.Utterance, frontend.CorpusConfig, error)) {
	fs := newFlags(e, name, "")
	in := fs.String("in", "", "utterances Parquet file (rows with audio_path; start_s/end_s select spans)")
	base := fs.String("audio-dir", "", "folder relative audio paths are resolved against (default: the Parquet file's folder)")
	skip := fs.Bool("skip-bad", false, "skip unreadable or too-short audio instead of failing")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "audio files analysed in parallel")
	cache := fs.String("cache", "", "JSON-lines file of per-utterance results: appended as files are done, reused on reruns (resume)")
	load := func() ([]data.Utterance, frontend.CorpusConfig, error) {
		cfg := frontend.DefaultCorpusConfig()
		if *in == "" {
			return nil, cfg, usagef("--in utterances.parquet is required")
		}
		if fs.NArg() > 0 {
			return nil, cfg, usagef("unexpected arguments %v: the corpus comes from --in", fs.Args())
		}
		utts, err := data.ReadUtterances(*in)
		if err != nil {
			return nil, cfg, err // data.ReadUtterances names the file
		}
		cfg.BaseDir = *base
		if cfg.BaseDir == "" {
			cfg.BaseDir = filepath.Dir(*in)
		}
		cfg.SkipBad, cfg.Workers, cfg.CachePath = *skip, *workers, *cache
		return utts, cfg, nil
	}
	return fs, load
}

// speechProfileOutput is the --json object of `speech profile`.
type speechProfileOutput struct {
	Characters []speech.Profile   `json:"characters"`
	Tags       map[string]string  `json:"tags"`
	Analysed   int                `json:"utterances_analysed"`
	Skipped    []speechSkippedRow `json:"skipped"`
}

type speechSkippedRow struct {
	Row    int    `json:"row"`
	Audio  string `json:"audio"`
	Reason string `json:"reason"`
}

func runSpeechProfile(ctx context.Context, e *env, args []string) error {
	fs, load := speechCorpusFlags(e, "speech profile")
	asJSON := fs.Bool("json", false, `print {"characters": [...], "tags": {...}, ...}`)
	outs := addSpeechOutputFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	utts, cfg, err := load()
	if err != nil {
		return err
	}
	report, finish := e.progress("speech profile")
	cfg.Progress = report
	profiles, res, err := frontend.ProfileCorpus(ctx, utts, cfg)
	finish()
	if err != nil {
		return err
	}
	out := speechProfileOutput{Characters: profiles, Tags: map[string]string{}, Skipped: []speechSkippedRow{}}
	for _, p := range profiles {
		out.Tags[p.Character] = p.Tags()
	}
	for _, r := range res {
		if r.Features != nil {
			out.Analysed++
			continue
		}
		reason := r.Skipped
		if r.Err != nil {
			reason += ": " + r.Err.Error()
		}
		out.Skipped = append(out.Skipped, speechSkippedRow{Row: r.Row, Audio: r.Audio, Reason: reason})
	}
	if len(out.Skipped) > 0 {
		e.Logf("speech profile: %d utterances skipped", len(out.Skipped))
	}
	if err := outs.write(e, profiles); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(out)
	}
	fmt.Fprint(e.Stdout(), speech.RenderProfiles(profiles))
	return nil
}

// speechReferenceOutput is the --json object of `speech reference`.
type speechReferenceOutput struct {
	References []frontend.Reference `json:"references"`
}

func runSpeechReference(ctx context.Context, e *env, args []string) error {
	fs, load := speechCorpusFlags(e, "speech reference")
	asJSON := fs.Bool("json", false, `print {"references": [...]}`)
	emb := addSpeakerEmbedderFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	utts, cfg, err := load()
	if err != nil {
		return err
	}
	embedder, closeFn, err := emb.open()
	if err != nil {
		return err
	}
	defer closeFn()
	cfg.Embedder = embedder
	report, finish := e.progress("speech reference")
	cfg.Progress = report
	refs, err := frontend.SelectReferences(ctx, utts, cfg)
	finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(speechReferenceOutput{References: refs})
	}
	for _, r := range refs {
		fmt.Fprintf(e.Stdout(), "%s: row %d, %s [%.2f–%.2f s], mean cosine %s over %d clips (%s)\n",
			r.Character, r.Row, r.Audio, r.StartS, r.EndS, speechNum(r.MeanCosine, 3), r.Clips, r.Embedder)
	}
	return nil
}

func runSpeechValidate(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech validate", "PRAAT.json")
	asJSON := fs.Bool("json", false, "print the agreement as one JSON object")
	rate := fs.Float64("rate", speech.DefaultRate, "analysis sample rate in Hz (0 = each file's own, as Praat)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give one Praat reference JSON (made by scripts/praat-measure.sh)")
	}
	ref, err := frontend.LoadPraatReference(fs.Arg(0))
	if err != nil {
		return err
	}
	cfg := speech.DefaultConfig()
	cfg.Rate = *rate
	a, err := frontend.CompareWithPraat(ref, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(a)
	}
	fmt.Fprintf(e.Stdout(), "Praat %s, %d files, %d pitch frames (%d voiced in both)\n", ref.PraatVersion, a.Files, a.PitchFrames, a.BothVoiced)
	fmt.Fprintf(e.Stdout(), "  pitch: median |ΔF0| %.4f st (p95 %.4f st), voicing agreement %.2f %%, gross errors %.2f %%\n",
		a.MedianAbsDiffST, a.P95AbsDiffST, 100*a.VoicingAgreement, 100*a.GrossErrors)
	fmt.Fprintf(e.Stdout(), "  intensity: max |Δ mean| %.3f dB, max |Δ frame| %.3f dB\n", a.MaxIntensityMeanDiffDB, a.MaxIntensityFrameDiffDB)
	fmt.Fprintf(e.Stdout(), "  syllables: same count in %.0f %% of files, mean |Δ| %.2f; pause ratio max |Δ| %.3f\n",
		100*a.SyllableExact, a.SyllableMeanAbsDiff, a.MaxPauseRatioDiff)
	return nil
}

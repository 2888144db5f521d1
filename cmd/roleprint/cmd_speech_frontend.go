package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/speech"
	"github.com/roleprint/roleprint/speech/frontend"
)

// decodeFlags are the speech front end's decoding flags.
type decodeFlags struct {
	allowTruncated *bool
	cache          *string
	ffmpeg         *string
	maxAudioMB     *int64
}

func addDecodeFlags(fs *flag.FlagSet) decodeFlags {
	return decodeFlags{
		allowTruncated: fs.Bool("allow-truncated", false, "read streamed WAVs whose header sizes are placeholders or too large (espeak-ng --stdout > x.wav)"),
		cache:          fs.String("decode-cache", "", "folder of converted audio, keyed by content hash (default: decoded/ in the RolePrint cache; off: none)"),
		ffmpeg:         fs.String("ffmpeg", "", "ffmpeg executable for MP3/FLAC/OGG/M4A/video (default: ffmpeg on PATH; Debian: apt-get install ffmpeg)"),
		maxAudioMB:     fs.Int64("max-audio-mb", speech.DefaultMaxAudioBytes>>20, "size limit of one audio file in MiB (files are read whole)"),
	}
}

func (d decodeFlags) options() frontend.DecodeOptions {
	return frontend.DecodeOptions{AllowTruncated: *d.allowTruncated, CacheDir: *d.cache, FFmpeg: *d.ffmpeg, MaxBytes: max(*d.maxAudioMB, 1) << 20}
}

// speechConvertJSON is the --json object of `speech convert`.
type speechConvertJSON struct {
	Rate  int               `json:"rate"`
	Files []speechConverted `json:"files"`
}

type speechConverted struct {
	Input  string  `json:"input"`
	Output string  `json:"output,omitempty"`
	DurS   float64 `json:"duration_s,omitempty"`
	Error  string  `json:"error,omitempty"`
}

func runSpeechConvert(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech convert", "FILES...")
	rate := fs.Int("rate", frontend.ASRRate, fmt.Sprintf("sample rate of the mono WAV: %d (ASR, analyses) or %d (VoxRole's alignment)", frontend.ASRRate, frontend.VoxRoleAlignRate))
	outDir := fs.String("out-dir", "", "copy the WAVs here as NAME.wav (default: leave them in the cache and print where)")
	asJSON := fs.Bool("json", false, `print {"rate", "files": [{"input", "output", "duration_s"} or {"input", "error"}]}`)
	dec := addDecodeFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no files given")
	}
	opts := dec.options()
	opts.Rate = *rate
	out := speechConvertJSON{Rate: *rate}
	var failed []string
	report, finish := e.progress("speech convert")
	wroteFrom := map[string]string{} // --out-dir file → the input converted into it
	for i, in := range fs.Args() {
		r := speechConverted{Input: in}
		p, cleanup, err := frontend.ConvertWAV(ctx, in, opts)
		if err == nil {
			if *outDir != "" {
				dst := filepath.Join(*outDir, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))+".wav")
				if prev, dup := wroteFrom[dst]; dup {
					cleanup()
					r.Error = fmt.Sprintf("%s: not converted: %s already went to %s (same name; convert them into different --out-dir folders)", in, prev, dst)
					failed = append(failed, r.Error)
					out.Files = append(out.Files, r)
					report(i+1, fs.NArg())
					continue
				}
				wroteFrom[dst] = in
				var b []byte
				if b, err = fsx.ReadFile(p, dec.options().MaxBytes); err == nil {
					if err = os.MkdirAll(*outDir, 0o755); err == nil {
						err = fsx.WriteFileAll(dst, b, 0o644)
					}
				}
				cleanup()
				p = dst
			}
		}
		if err == nil {
			var s *speech.Sound
			if s, err = speech.ReadWAV(p); err == nil {
				r.Output, r.DurS = p, s.Duration()
			}
		}
		if err != nil {
			r.Error = err.Error()
			failed = append(failed, err.Error())
		}
		out.Files = append(out.Files, r)
		report(i+1, fs.NArg())
	}
	finish()
	var failure error
	if len(failed) > 0 {
		failure = fmt.Errorf("%d of %d files could not be converted:\n  %s", len(failed), fs.NArg(), strings.Join(failed, "\n  "))
	}
	if *asJSON {
		if err := e.JSON(out); err != nil {
			return err
		}
		return failure
	}
	for _, r := range out.Files {
		if r.Error == "" {
			fmt.Fprintf(e.Stdout(), "%s → %s (%.2f s, %d Hz mono)\n", r.Input, r.Output, r.DurS, *rate)
		}
	}
	return failure
}

// asrFlags are the transcription endpoint flags (speech transcribe,
// align --audio).
type asrFlags struct {
	base, model, keyEnv, lang, prompt *string
}

func addASRFlags(fs *flag.FlagSet) asrFlags {
	return asrFlags{
		base:   fs.String("asr-base-url", os.Getenv("ROLEPRINT_ASR_BASE_URL"), "OpenAI-compatible API root of the transcription server, ending in /v1 (env ROLEPRINT_ASR_BASE_URL)"),
		model:  fs.String("asr-model", envOr("ROLEPRINT_ASR_MODEL", "whisper-1"), "transcription model (env ROLEPRINT_ASR_MODEL)"),
		keyEnv: fs.String("asr-key-env", "", "environment variable holding the transcription server's API key (default: none; OPENAI_API_KEY for api.openai.com)"),
		lang:   fs.String("asr-language", "", "language hint (ISO 639-1, e.g. en)"),
		prompt: fs.String("asr-prompt", "", "decoding prompt (character names, spellings)"),
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func (a asrFlags) config() (llm.ASRConfig, error) {
	c := llm.ASRConfig{BaseURL: *a.base, Model: *a.model, Language: *a.lang, Prompt: *a.prompt}
	if c.BaseURL == "" {
		return c, usagef("no transcription server: set --asr-base-url (e.g. http://127.0.0.1:8080/v1 for whisper.cpp's server, see docs/speech.md)")
	}
	env := *a.keyEnv
	if env == "" && strings.Contains(c.BaseURL, "api.openai.com") {
		env = llm.EnvOpenAIKey
	}
	if env != "" {
		if c.APIKey = os.Getenv(env); c.APIKey == "" {
			return c, usagef("--asr-key-env %s: that environment variable is empty", env)
		}
	}
	return c, nil
}

// transcribeAudio converts audio to a 16 kHz mono WAV (or rate) and sends
// it to the transcription server.
func transcribeAudio(ctx context.Context, cfg llm.ASRConfig, audio string, opts frontend.DecodeOptions) (*llm.Transcript, error) {
	wav, cleanup, err := frontend.ConvertWAV(ctx, audio, opts)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	return llm.Transcribe(ctx, cfg, wav)
}

func runSpeechTranscribe(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech transcribe", "AUDIO")
	out := fs.String("out", "", "write the transcript JSON ({text, words: [{word, start, end}], segments}) here; `align` reads it")
	rate := fs.Int("rate", frontend.ASRRate, "sample rate of the WAV sent to the server")
	asJSON := fs.Bool("json", false, "print the transcript as one JSON object")
	asr := addASRFlags(fs)
	dec := addDecodeFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give one audio or video file")
	}
	cfg, err := asr.config()
	if err != nil {
		return err
	}
	opts := dec.options()
	opts.Rate = *rate
	t, err := transcribeAudio(ctx, cfg, fs.Arg(0), opts)
	if err != nil {
		return err
	}
	if *out != "" {
		b, _ := json.MarshalIndent(t, "", "  ")
		if err := fsx.WriteFileAll(*out, b, 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		return e.JSON(t)
	}
	fmt.Fprintf(e.Stdout(), "%d words, %d segments, language %q\n%s\n", len(t.Words), len(t.Segments), t.Language, t.Text)
	return nil
}

// speechTTSJSON is the --json object of `speech tts`.
type speechTTSJSON struct {
	Output      string `json:"output"`
	AudioDir    string `json:"audio_dir"`
	Synthesized int    `json:"synthesized"`
	Reused      int    `json:"reused"`
	Rows        int    `json:"rows"`
}

func runSpeechTTS(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech tts", "")
	in := fs.String("in", "", "generated corpus (Parquet, e.g. from `roleprint selfplay`)")
	out := fs.String("out", "", "corpus written with audio_path set on the agent lines")
	audioDir := fs.String("audio-dir", "", "folder of the WAVs (default: OUT's name without extension + \"-audio\")")
	text := fs.String("text", "", "instead of --in: speak this text into --out (a WAV)")
	base := fs.String("tts-base-url", os.Getenv("ROLEPRINT_TTS_BASE_URL"), "OpenAI-compatible API root of the speech server, ending in /v1 (env ROLEPRINT_TTS_BASE_URL)")
	model := fs.String("tts-model", envOr("ROLEPRINT_TTS_MODEL", "tts-1"), "TTS model")
	voice := fs.String("voice", "alloy", "voice; ROLE=VOICE,ROLE2=VOICE2 gives roles their own voices (the first plain name is the default)")
	keyEnv := fs.String("tts-key-env", "", "environment variable holding the speech server's API key")
	asJSON := fs.Bool("json", false, "print {output, audio_dir, synthesized, reused, rows}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *base == "" || *out == "" || (*in == "") == (*text == "") {
		return usagef("want --tts-base-url, --out and one of --in CORPUS.parquet or --text TEXT")
	}
	voices, def := map[string]string{}, ""
	for _, v := range strings.Split(*voice, ",") {
		if k, val, ok := strings.Cut(v, "="); ok {
			voices[strings.TrimSpace(k)] = strings.TrimSpace(val)
		} else if def == "" {
			def = strings.TrimSpace(v)
		}
	}
	cfg := llm.TTSConfig{BaseURL: *base, Model: *model, Voice: def}
	if *keyEnv != "" {
		if cfg.APIKey = os.Getenv(*keyEnv); cfg.APIKey == "" {
			return usagef("--tts-key-env %s: that environment variable is empty", *keyEnv)
		}
	}
	if *text != "" {
		if err := frontend.Synthesize(ctx, cfg, *text, *out); err != nil {
			return err
		}
		if *asJSON {
			return e.JSON(speechTTSJSON{Output: *out, AudioDir: filepath.Dir(*out), Synthesized: 1})
		}
		fmt.Fprintf(e.Stdout(), "1 line spoken → %s\n", *out)
		return nil
	}
	utts, err := data.ReadUtterances(*in)
	if err != nil {
		return err
	}
	dir := *audioDir
	if dir == "" {
		dir = strings.TrimSuffix(*out, filepath.Ext(*out)) + "-audio"
	}
	res := speechTTSJSON{Output: *out, AudioDir: dir, Rows: len(utts)}
	report, finish := e.progress("speech tts")
	named := map[string]bool{} // WAV names given in this run
	for i := range utts {
		u := &utts[i]
		report(i, len(utts))
		if !u.Generated() || u.Speaker != u.Role {
			continue // real lines and context lines (the greeting, questions) keep no audio
		}
		name := fmt.Sprintf("%s-%s-%03d.wav", safeName(u.Source), safeName(u.ConversationID), u.Turn)
		if named[name] {
			// Another line's name after safeName ("A+B#0" and "A B#0"):
			// tell them apart by a hash of the raw IDs, or this line would
			// reuse that line's recording.
			h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d", u.Source, u.ConversationID, u.Turn)))
			name = strings.TrimSuffix(name, ".wav") + "-" + hex.EncodeToString(h[:4]) + ".wav"
		}
		named[name] = true
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Size() > 44 {
			res.Reused++ // resume: already spoken
		} else {
			c := cfg
			if v, ok := voices[u.Role]; ok {
				c.Voice = v
			}
			if err := frontend.Synthesize(ctx, c, u.Text, p); err != nil {
				finish()
				return fmt.Errorf("%s row %d: %w (rerun to resume)", *in, i, err)
			}
			res.Synthesized++
		}
		abs, _ := filepath.Abs(p)
		u.AudioPath = abs
	}
	finish()
	if err := data.WriteUtterances(*out, utts); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(res)
	}
	fmt.Fprintf(e.Stdout(), "%d lines spoken, %d reused → %s (audio in %s)\n", res.Synthesized, res.Reused, *out, dir)
	return nil
}

// safeName keeps letters, digits, '.', '-' and '_' of s.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

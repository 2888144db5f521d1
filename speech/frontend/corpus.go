package frontend

import (
	"context"
	"fmt"
	"github.com/roleprint/roleprint/speech"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/stats"
)

// CorpusConfig configures the analysis of a corpus's audio (utterances
// whose audio_path is set).
type CorpusConfig struct {
	// Features configures per-utterance analysis (default DefaultConfig).
	Features speech.Config
	// Bins sets the Low/High shares of the profiles (default 20/20).
	Bins speech.BinConfig
	// Embed configures speaker embeddings (default DefaultEmbedConfig).
	Embed speech.EmbedConfig
	// Embedder, when set, embeds voices instead of Embed's MFCC
	// statistics (a neural speaker model; nil keeps the statistics).
	Embedder speech.SpeakerEmbedder
	// BaseDir resolves relative audio paths; empty means the working
	// directory.
	BaseDir string
	// MinDuration skips utterances shorter than this many seconds, too
	// short for the 128 ms syllable analysis window (default 0.25).
	MinDuration float64
	// SkipBad records unreadable audio in UtteranceResult.Err and goes on
	// instead of failing (default false: the first bad file is an error
	// naming the row and the file).
	SkipBad bool
	// Workers is the number of audio files analysed at once (default
	// GOMAXPROCS).
	Workers int
	// Progress, when set, is called with (utterances done, total).
	Progress func(done, total int)
	// CachePath, when set, names a JSON-lines file where each utterance's
	// result is appended as soon as its audio file is done, and from which
	// a rerun takes every result whose audio (path, size, modification
	// time), span, text and configuration are unchanged: an interrupted
	// analysis resumes where it stopped.
	CachePath string
}

// DefaultCorpusConfig returns the defaults documented on CorpusConfig.
func DefaultCorpusConfig() CorpusConfig {
	return CorpusConfig{Features: speech.DefaultConfig(), Bins: speech.DefaultBinConfig(), Embed: speech.DefaultEmbedConfig(), MinDuration: 0.25}
}

// UtteranceResult is the analysis of one utterance of a corpus.
type UtteranceResult struct {
	// Row is the utterance's index in the input slice.
	Row int
	// Character is the utterance's speaker.
	Character string
	// Audio is the resolved audio path; Start and End the analysed span in
	// seconds (End 0 = to the end of the file).
	Audio      string
	Start, End float64
	// Features and Embedding are nil when the utterance was skipped.
	Features  *speech.Features
	Embedding []float64
	// Skipped says why the utterance was not analysed ("" when it was).
	Skipped string
	// Err is the error that made SkipBad skip it.
	Err error
}

// AnalyzeUtterances measures every utterance that has audio: features
// (Analyze, with the utterance text as transcript) and, when embed is set,
// a speaker embedding. Each audio file is read once and sliced by the
// utterances' start_s/end_s; files are processed in parallel. Utterances
// without audio_path are left out of the result.
func AnalyzeUtterances(ctx context.Context, utts []data.Utterance, cfg CorpusConfig, embed bool) ([]UtteranceResult, error) {
	byFile := map[string][]int{}
	var files []string
	total := 0
	for i := range utts {
		if utts[i].AudioPath == "" {
			continue
		}
		p := utts[i].AudioPath
		if !filepath.IsAbs(p) && cfg.BaseDir != "" {
			p = filepath.Join(cfg.BaseDir, p)
		}
		if _, ok := byFile[p]; !ok {
			files = append(files, p)
		}
		byFile[p] = append(byFile[p], i)
		total++
	}
	if total == 0 {
		return nil, fmt.Errorf("speech: no utterance has an audio_path")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var cache *featureCache
	if cfg.CachePath != "" {
		var err error
		if cache, err = openFeatureCache(cfg.CachePath, cfg); err != nil {
			return nil, err
		}
		defer cache.Close()
	}
	results := make([][]UtteranceResult, len(files))
	errs := make([]error, len(files))
	var mu sync.Mutex
	done := 0
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fi := range jobs {
				if ctx.Err() != nil {
					errs[fi] = ctx.Err()
					continue
				}
				results[fi], errs[fi] = analyzeFile(files[fi], byFile[files[fi]], utts, cfg, embed, cache)
				mu.Lock()
				done += len(byFile[files[fi]])
				if cfg.Progress != nil {
					cfg.Progress(done, total)
				}
				mu.Unlock()
			}
		}()
	}
	for fi := range files {
		jobs <- fi
	}
	close(jobs)
	wg.Wait()
	var out []UtteranceResult
	for fi := range files {
		if errs[fi] != nil {
			return nil, errs[fi]
		}
		out = append(out, results[fi]...)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Row < out[b].Row })
	return out, nil
}

// analyzeFile reads one audio file and analyses the utterances (rows)
// that point into it, taking what it can from the cache (nil for none) and
// adding what it computed.
func analyzeFile(path string, rows []int, utts []data.Utterance, cfg CorpusConfig, embed bool, cache *featureCache) ([]UtteranceResult, error) {
	out := make([]UtteranceResult, 0, len(rows))
	var stat os.FileInfo
	if cache != nil {
		stat, _ = os.Stat(path)
	}
	var s *speech.Sound
	var readErr error
	read := false
	var fresh []cacheEntry
	for _, row := range rows {
		u := &utts[row]
		r := UtteranceResult{Row: row, Character: u.Speaker, Audio: path}
		if u.StartS != nil {
			r.Start = *u.StartS
		}
		if u.EndS != nil {
			r.End = *u.EndS
		}
		var key string
		if cache != nil {
			key = cache.key(path, stat, r.Start, r.End, u.Text)
			if e, ok := cache.get(key); ok && (!embed || e.Embedding != nil || e.Skipped != "") {
				r.Features, r.Embedding, r.Skipped = e.Features, e.Embedding, e.Skipped
				out = append(out, r)
				continue
			}
		}
		if !read {
			read = true
			s, readErr = speech.ReadWAV(path)
			if readErr == nil && cfg.Features.Rate > 0 && s.Rate != cfg.Features.Rate {
				s, readErr = speech.Resample(s, cfg.Features.Rate, speech.ResampleConfig{})
			}
		}
		if readErr != nil {
			if !cfg.SkipBad {
				return nil, fmt.Errorf("row %d: %w", row, readErr)
			}
			r.Skipped, r.Err = "unreadable audio", readErr
			out = append(out, r)
			continue
		}
		clip, cerr := s.Slice(r.Start, r.End)
		if cerr == nil && clip.Duration() < cfg.MinDuration {
			r.Skipped = fmt.Sprintf("shorter than %.2f s", cfg.MinDuration)
			out = append(out, r)
			fresh = append(fresh, cacheEntry{Key: key, Skipped: r.Skipped})
			continue
		}
		if cerr == nil {
			r.Features, cerr = speech.Analyze(clip, u.Text, cfg.Features)
		}
		if cerr == nil && embed {
			if cfg.Embedder != nil {
				r.Embedding, cerr = cfg.Embedder.Embed(clip)
			} else {
				r.Embedding, cerr = speech.Embed(clip, cfg.Embed)
			}
		}
		if cerr != nil {
			if !cfg.SkipBad {
				return nil, fmt.Errorf("row %d (%s): %w", row, path, cerr)
			}
			r.Features, r.Embedding = nil, nil
			r.Skipped, r.Err = "analysis failed", cerr
			out = append(out, r)
			continue
		}
		r.Features.File = path
		out = append(out, r)
		fresh = append(fresh, cacheEntry{Key: key, Features: r.Features, Embedding: r.Embedding})
	}
	if cache != nil && len(fresh) > 0 {
		if err := cache.add(fresh); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ProfileCorpus analyses a corpus's audio and returns one acoustic profile
// per character (see BuildProfiles), with the per-utterance results.
func ProfileCorpus(ctx context.Context, utts []data.Utterance, cfg CorpusConfig) ([]speech.Profile, []UtteranceResult, error) {
	res, err := AnalyzeUtterances(ctx, utts, cfg, false)
	if err != nil {
		return nil, nil, err
	}
	by := map[string][]*speech.Features{}
	for _, r := range res {
		if r.Features != nil {
			by[r.Character] = append(by[r.Character], r.Features)
		}
	}
	if len(by) == 0 {
		return nil, res, fmt.Errorf("speech: no utterance could be analysed (%d skipped)", len(res))
	}
	profiles, err := speech.BuildProfiles(by, cfg.Bins)
	return profiles, res, err
}

// ProfileTags returns, for each character with audio in utts, the acoustic
// tag line for judge prompts (Profile.Tags), e.g. "Pitch: High (mean F0
// 212 Hz); Energy: Medium (63.1 dB); Speaking rate: Low (3.1
// syllables/s)". It is the entry point for the persona judges: pass the
// corpus rows and DefaultCorpusConfig().
func ProfileTags(ctx context.Context, utts []data.Utterance, cfg CorpusConfig) (map[string]string, error) {
	profiles, _, err := ProfileCorpus(ctx, utts, cfg)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(profiles))
	for _, p := range profiles {
		out[p.Character] = p.Tags()
	}
	return out, nil
}

// Reference is a character's chosen reference voice.
type Reference struct {
	// Character is the speaker.
	Character string `json:"character"`
	// Row is the chosen utterance's index in the corpus; Audio, StartS and
	// EndS locate its clip.
	Row    int     `json:"row"`
	Audio  string  `json:"audio"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	// MeanCosine is the clip's mean cosine to the character's other clips
	// (null with a single clip); Clips is the number of clips compared.
	MeanCosine float64 `json:"mean_cosine"`
	Clips      int     `json:"clips"`
	// Embedder names the speaker embedding compared: a neural model
	// ("hf:ORG/NAME") or MFCCStatsName.
	Embedder string `json:"embedder"`
}

// MarshalJSON writes NaN as null.
func (r Reference) MarshalJSON() ([]byte, error) { return stats.MarshalStruct(r) }

// SelectReferences picks each character's reference voice (SpeechRole):
// every clip is embedded (cfg.Embedder, else Embed, whose statistics are
// then standardised over all clips of the corpus and their blocks weighed
// with cfg.Embed.BlockWeights),
// and per character the clip with the highest mean
// cosine to the character's other clips wins (SelectReference).
func SelectReferences(ctx context.Context, utts []data.Utterance, cfg CorpusConfig) ([]Reference, error) {
	res, err := AnalyzeUtterances(ctx, utts, cfg, true)
	if err != nil {
		return nil, err
	}
	var all [][]float64
	for _, r := range res {
		if r.Embedding != nil {
			all = append(all, r.Embedding)
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("speech: no clip could be embedded")
	}
	// MFCC statistics are standardised and weighed; a neural embedder's
	// vectors are compared as they are.
	weigh := func(v []float64) []float64 { return v }
	if cfg.Embedder == nil {
		st, err := speech.FitStandardizer(all)
		if err != nil {
			return nil, err
		}
		weigh = func(v []float64) []float64 { return speech.WeighBlocks(st.Apply(v), cfg.Embed.BlockWeights) }
	}
	by := map[string][]UtteranceResult{}
	var names []string
	for _, r := range res {
		if r.Embedding == nil {
			continue
		}
		if _, ok := by[r.Character]; !ok {
			names = append(names, r.Character)
		}
		by[r.Character] = append(by[r.Character], r)
	}
	sort.Strings(names)
	out := make([]Reference, 0, len(names))
	for _, c := range names {
		clips := by[c]
		embs := make([][]float64, len(clips))
		for i, r := range clips {
			embs[i] = weigh(r.Embedding)
		}
		best, sims, err := speech.SelectReference(embs)
		if err != nil {
			return nil, err
		}
		r := clips[best]
		end := r.End
		if end == 0 && r.Features != nil {
			end = r.Start + r.Features.DurationS
		}
		out = append(out, Reference{Character: c, Row: r.Row, Audio: r.Audio, StartS: r.Start, EndS: end,
			MeanCosine: sims[best], Clips: len(clips), Embedder: cfg.embedderName()})
	}
	return out, nil
}

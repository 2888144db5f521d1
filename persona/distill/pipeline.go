package distill

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/roleprint/roleprint/persona/script"
)

// Config tunes a distillation run. DefaultConfig gives the documented
// defaults.
type Config struct {
	// Chunk bounds the chunks scenes are cut into.
	Chunk script.ChunkOptions `json:"chunk"`
	// MinLines is how many lines a speaker needs to get a persona.
	// Default 20.
	MinLines int `json:"min_lines"`
	// MaxCharacters keeps only the characters with most lines (0: all).
	// Default 30.
	MaxCharacters int `json:"max_characters"`
	// Characters, when not empty, names the characters to distil
	// (overrides MinLines and MaxCharacters).
	Characters []string `json:"characters,omitempty"`
	// MinCoEvents is N: a pair gets a relationship when both take part in
	// at least N events. Default 3.
	MinCoEvents int `json:"min_co_events"`
	// MaxEvents bounds the events shown for one personality or
	// relationship (evenly sampled); backends that implement WholeEvents
	// (the extractive one) see all of them. Default 60.
	MaxEvents int `json:"max_events"`
	// MaxRelationships bounds the relationships in one prompt (most shared
	// events first). Default 8.
	MaxRelationships int `json:"max_relationships"`
	// PromptEvents is how many of a character's events ground its prompt.
	// Default 5.
	PromptEvents int `json:"prompt_events"`
	// Concurrency is how many units run at once. Default 4.
	Concurrency int `json:"concurrency"`
	// Acoustic maps characters to their acoustic profile tag lines
	// (ReadAcousticProfiles); a character found here gets the line in its
	// Profile, so its second-person prompt describes its voice. Default
	// none.
	Acoustic map[string]string `json:"acoustic,omitempty"`
	// Progress, when set, receives (stage, done, total) after each unit.
	Progress func(stage string, done, total int) `json:"-"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{Chunk: script.DefaultChunkOptions(), MinLines: 20, MaxCharacters: 30, MinCoEvents: 3, MaxEvents: 60,
		MaxRelationships: 8, PromptEvents: 5, Concurrency: 4}
}

// StageCount says how many units of a stage were computed in this run and
// how many were reused from an earlier one.
type StageCount struct {
	Stage    string `json:"stage"`
	Units    int    `json:"units"`
	Computed int    `json:"computed"`
	Reused   int    `json:"reused"`
}

// Result is everything a run produced (also written to the output folder).
type Result struct {
	// Backend is the backend's name and Fingerprint its version string
	// (method, model, settings); Extractive is true when no language
	// model was involved.
	Backend     string `json:"backend"`
	Fingerprint string `json:"fingerprint"`
	Extractive  bool   `json:"extractive"`
	// Scenes, Lines and Chunks count the input and the chunks it was cut
	// into.
	Scenes int `json:"scenes"`
	Lines  int `json:"lines"`
	Chunks int `json:"chunks"`
	// Characters are the distilled characters, most lines first;
	// Personalities, Styles and Personas are in the same order.
	Characters    []string      `json:"characters"`
	Events        []Event       `json:"events"`
	Personalities []Personality `json:"personalities"`
	// Relationships are the pairs sharing ≥ Config.MinCoEvents events,
	// sorted by name.
	Relationships []Relationship `json:"relationships"`
	Styles        []Style        `json:"styles"`
	Personas      []Persona      `json:"personas"`
	// Stages say per stage how many units were computed and reused.
	Stages []StageCount `json:"stages"`
	// Seconds is the run's wall time.
	Seconds float64 `json:"seconds"`
}

// Manifest is OUT/manifest.json: how the run was made. It is written last,
// so its presence means the run finished; its fields are Result's plus the
// inputs, the resolved configuration, the finishing time (UTC) and the
// files written.
type Manifest struct {
	Backend     string       `json:"backend"`
	Fingerprint string       `json:"fingerprint"`
	Extractive  bool         `json:"extractive"`
	Inputs      []string     `json:"inputs,omitempty"`
	Config      Config       `json:"config"`
	Scenes      int          `json:"scenes"`
	Lines       int          `json:"lines"`
	Chunks      int          `json:"chunks"`
	Characters  []string     `json:"characters"`
	Stages      []StageCount `json:"stages"`
	Finished    time.Time    `json:"finished"`
	Seconds     float64      `json:"seconds"`
	Files       []string     `json:"files"`
}

// Stage names, in pipeline order; they name the folders under OUT/units.
const (
	StageEvents        = "events"
	StagePersonality   = "personality"
	StageRelationships = "relationships"
	StageStyle         = "style"
	StagePrompt        = "prompt"
)

// Run distils personas from s with backend b, storing every unit under
// outDir/units and the aggregates in outDir (see the package
// documentation). inputs are recorded in the manifest. A run interrupted
// by ctx or an error resumes from the stored units when run again with
// the same backend fingerprint and input.
func Run(ctx context.Context, s *script.Script, b Backend, outDir string, cfg Config, inputs ...string) (*Result, error) {
	start := time.Now()
	cfg = cfg.withDefaults()
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	st := newStore(outDir)
	chunks := s.Chunks(cfg.Chunk)
	lines := map[string][]string{}
	for _, sc := range s.Scenes {
		for _, l := range sc.Lines {
			if !l.IsNarration() {
				lines[l.Speaker] = append(lines[l.Speaker], l.Text)
			}
		}
	}
	chars := selectCharacters(s, cfg)
	if len(chars) == 0 {
		return nil, fmt.Errorf("distill: no character has %d lines or more (lower --min-lines)", cfg.MinLines)
	}
	corpus := &Corpus{Chunks: chunks, Characters: chars, Lines: lines}
	if err := b.Prepare(ctx, corpus); err != nil {
		return nil, fmt.Errorf("distill: prepare %s: %w", b.Name(), err)
	}
	fp := b.Fingerprint()
	res := &Result{Backend: b.Name(), Fingerprint: fp, Extractive: b.Extractive(), Scenes: len(s.Scenes), Lines: s.NumLines(), Chunks: len(chunks), Characters: chars}

	// 1. Events.
	res.Events = make([]Event, len(chunks))
	err := parallel(ctx, cfg, StageEvents, len(chunks), func(i int) string { return "chunk " + chunks[i].ID }, func(i int) error {
		ch := chunks[i]
		key := unitKey(fp, StageEvents, struct {
			C     script.Chunk
			Known []string
		}{ch, chars})
		return st.do(StageEvents, ch.ID, key, &res.Events[i], func() error {
			ev, err := b.Event(ctx, ch, chars)
			res.Events[i] = ev
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	eventsOf := map[string][]Event{}
	for _, ev := range res.Events {
		for _, c := range ev.Characters {
			eventsOf[c] = append(eventsOf[c], ev)
		}
	}
	maxEvents := cfg.MaxEvents
	if w, ok := b.(WholeEvents); ok && w.WholeEvents() {
		maxEvents = 0 // sample(xs, 0) is xs
	}

	// 2. Personalities.
	res.Personalities = make([]Personality, len(chars))
	err = parallel(ctx, cfg, StagePersonality, len(chars), func(i int) string { return chars[i] }, func(i int) error {
		c := chars[i]
		evs := sample(eventsOf[c], maxEvents)
		key := unitKey(fp, StagePersonality, struct {
			C string
			E []Event
			L []string
		}{c, evs, lines[c]})
		return st.do(StagePersonality, c, key, &res.Personalities[i], func() error {
			p, err := b.Personality(ctx, c, evs, lines[c])
			p.Events, p.Scenes = len(eventsOf[c]), countScenes(eventsOf[c])
			res.Personalities[i] = p
			return err
		})
	})
	if err != nil {
		return nil, err
	}

	// 3. Relationships for pairs co-occurring in ≥ MinCoEvents events.
	type pair struct{ a, b string }
	co := map[pair][]Event{}
	for _, ev := range res.Events {
		cs := append([]string(nil), ev.Characters...)
		sort.Strings(cs)
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				co[pair{cs[i], cs[j]}] = append(co[pair{cs[i], cs[j]}], ev)
			}
		}
	}
	var pairs []pair
	for p, evs := range co {
		if len(evs) >= cfg.MinCoEvents {
			pairs = append(pairs, p)
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].a != pairs[j].a {
			return pairs[i].a < pairs[j].a
		}
		return pairs[i].b < pairs[j].b
	})
	res.Relationships = make([]Relationship, len(pairs))
	err = parallel(ctx, cfg, StageRelationships, len(pairs), func(i int) string { return pairs[i].a + " and " + pairs[i].b }, func(i int) error {
		p := pairs[i]
		shared := sample(co[p], maxEvents)
		key := unitKey(fp, StageRelationships, struct {
			A, B string
			E    []Event
		}{p.a, p.b, shared})
		return st.do(StageRelationships, p.a+"__"+p.b, key, &res.Relationships[i], func() error {
			r, err := b.Relationship(ctx, p.a, p.b, shared, corpus)
			r.CoEvents = len(co[p])
			res.Relationships[i] = r
			return err
		})
	})
	if err != nil {
		return nil, err
	}

	// 4. Linguistic style from the character's own lines.
	res.Styles = make([]Style, len(chars))
	err = parallel(ctx, cfg, StageStyle, len(chars), func(i int) string { return chars[i] }, func(i int) error {
		c := chars[i]
		key := unitKey(fp, StageStyle, struct {
			C string
			L []string
		}{c, lines[c]})
		return st.do(StageStyle, c, key, &res.Styles[i], func() error {
			s, err := b.Style(ctx, c, lines[c])
			res.Styles[i] = s
			return err
		})
	})
	if err != nil {
		return nil, err
	}

	// 5. Role-play prompts.
	res.Personas = make([]Persona, len(chars))
	err = parallel(ctx, cfg, StagePrompt, len(chars), func(i int) string { return chars[i] }, func(i int) error {
		c := chars[i]
		prof := Profile{Personality: res.Personalities[i], Style: res.Styles[i], Events: sample(eventsOf[c], cfg.PromptEvents),
			Acoustic: cfg.Acoustic[c]}
		for _, r := range res.Relationships {
			if r.A == c || r.B == c {
				prof.Relationships = append(prof.Relationships, r)
			}
		}
		sort.SliceStable(prof.Relationships, func(x, y int) bool { return prof.Relationships[x].CoEvents > prof.Relationships[y].CoEvents })
		if len(prof.Relationships) > cfg.MaxRelationships {
			prof.Relationships = prof.Relationships[:cfg.MaxRelationships]
		}
		key := unitKey(fp, StagePrompt, prof)
		return st.do(StagePrompt, c, key, &res.Personas[i], func() error {
			p, err := b.Prompt(ctx, prof)
			res.Personas[i] = p
			return err
		})
	})
	if err != nil {
		return nil, err
	}

	units := map[string]int{StageEvents: len(chunks), StagePersonality: len(chars), StageRelationships: len(pairs), StageStyle: len(chars), StagePrompt: len(chars)}
	for _, stage := range []string{StageEvents, StagePersonality, StageRelationships, StageStyle, StagePrompt} {
		res.Stages = append(res.Stages, StageCount{Stage: stage, Units: units[stage], Computed: st.computed[stage], Reused: st.reused[stage]})
	}
	res.Seconds = time.Since(start).Seconds()
	if err := writeOutputs(outDir, res, cfg, inputs); err != nil {
		return nil, err
	}
	return res, nil
}

// countScenes counts the distinct scenes of events.
func countScenes(events []Event) int {
	seen := map[string]bool{}
	for _, ev := range events {
		seen[ev.SceneID] = true
	}
	return len(seen)
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.MinLines <= 0 {
		c.MinLines = d.MinLines
	}
	if c.MaxCharacters < 0 {
		c.MaxCharacters = 0
	}
	if c.MinCoEvents <= 0 {
		c.MinCoEvents = d.MinCoEvents
	}
	if c.MaxEvents <= 0 {
		c.MaxEvents = d.MaxEvents
	}
	if c.MaxRelationships <= 0 {
		c.MaxRelationships = d.MaxRelationships
	}
	if c.PromptEvents <= 0 {
		c.PromptEvents = d.PromptEvents
	}
	if c.Concurrency <= 0 {
		c.Concurrency = d.Concurrency
	}
	return c
}

func selectCharacters(s *script.Script, cfg Config) []string {
	if len(cfg.Characters) > 0 {
		have := map[string]bool{}
		for _, sc := range s.Speakers(1) {
			have[sc.Speaker] = true
		}
		var out []string
		for _, c := range cfg.Characters {
			if have[c] {
				out = append(out, c)
			}
		}
		return out
	}
	var out []string
	for _, sc := range s.Speakers(cfg.MinLines) {
		if cfg.MaxCharacters > 0 && len(out) == cfg.MaxCharacters {
			break
		}
		out = append(out, sc.Speaker)
	}
	return out
}

// parallel runs fn(0..n-1) on cfg.Concurrency workers; the first error
// stops the others from starting new units and is returned, naming the
// stage and the unit (name(i): the chunk id, character or pair).
func parallel(ctx context.Context, cfg Config, stage string, n int, name func(i int) string, fn func(i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	for w := 0; w < min(cfg.Concurrency, max(n, 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				err := fn(i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("distill %s, %s: %w", stage, name(i), err)
					cancel()
				}
				done++
				if cfg.Progress != nil {
					cfg.Progress(stage, done, n)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func writeOutputs(dir string, r *Result, cfg Config, inputs []string) error {
	files := map[string]any{
		"events.json":        r.Events,
		"personalities.json": r.Personalities,
		"relationships.json": r.Relationships,
		"styles.json":        r.Styles,
		"personas.json":      r.Personas,
	}
	var names []string
	for name, v := range files {
		if err := writeJSON(filepath.Join(dir, name), v); err != nil {
			return err
		}
		names = append(names, name)
	}
	if err := writeParquets(dir, r); err != nil {
		return err
	}
	names = append(names, "events.parquet", "personas.parquet")
	sort.Strings(names)
	m := Manifest{Backend: r.Backend, Fingerprint: r.Fingerprint, Extractive: r.Extractive, Inputs: inputs, Config: cfg,
		Scenes: r.Scenes, Lines: r.Lines, Chunks: r.Chunks, Characters: r.Characters, Stages: r.Stages,
		Finished: time.Now().UTC(), Seconds: r.Seconds, Files: names}
	return writeJSON(filepath.Join(dir, "manifest.json"), m)
}

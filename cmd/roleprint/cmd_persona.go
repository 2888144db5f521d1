package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/distill"
	"github.com/roleprint/roleprint/persona/script"
)

func init() {
	register(&command{
		Name:    "persona",
		Summary: "persona distillation from scripts (VoxRole): `persona distill --backend extractive|llm --out DIR FILES...`",
		Run:     runPersona,
	})
}

// runPersona dispatches the persona sub-verbs.
func runPersona(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.Stderr(), "usage: roleprint persona distill [flags] FILES...\n\nFILES are corpus Parquet files (roleprint import) or screenplay-like text files.")
		if len(args) == 0 {
			return usagef("missing sub-command (distill)")
		}
		return nil
	}
	switch args[0] {
	case "distill":
		return runDistill(ctx, e, args[1:])
	}
	return usagef("unknown persona sub-command %q (known: distill)", args[0])
}

// llmFlags registers the --llm-* flags on fs; the returned function builds
// the client after parsing (nil client when required is false and no
// model is configured).
func llmFlags(fs *flag.FlagSet, e *env) func(required bool) (*llm.Client, error) {
	cfg, envErr := llm.ConfigFromEnv()
	finish := cfg.RegisterFlags(fs)
	return func(required bool) (*llm.Client, error) {
		if envErr != nil {
			return nil, usagef("%v", envErr)
		}
		if err := finish(); err != nil {
			return nil, usagef("%v", err)
		}
		if cfg.Model == "" && !required {
			return nil, nil
		}
		if err := checkLLMEndpoint(cfg); err != nil {
			return nil, err
		}
		cfg.Logf = e.Logf
		c, err := llm.New(cfg)
		if err != nil {
			return nil, usagef("%v", err)
		}
		return c, nil
	}
}

// checkLLMEndpoint refuses a configuration that would send requests to
// the default hosted endpoint without a key (or with no model), naming the
// flags and variables to set, as llm-verify does.
func checkLLMEndpoint(cfg llm.Config) error {
	if cfg.Model == "" {
		return usagef("no LLM endpoint configured: set --llm-base-url and --llm-model (or %s and %s; the key goes in %s or %s)",
			llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvOpenAIKey)
	}
	if strings.TrimRight(cfg.BaseURL, "/") == llm.DefaultBaseURL && cfg.APIKey == "" {
		return usagef("the default endpoint (%s) needs an API key: set %s or %s (or --llm-key-env NAME), or point --llm-base-url (%s) at a local server such as http://127.0.0.1:8000/v1",
			llm.DefaultBaseURL, llm.EnvAPIKey, llm.EnvOpenAIKey, llm.EnvBaseURL)
	}
	return nil
}

// loadScripts reads corpus Parquet files (grouped into scenes by
// conversation) and screenplay-like text files into one script.
func loadScripts(paths []string, dropNarration bool) (*script.Script, error) {
	all := &script.Script{Name: "input"}
	if len(paths) == 1 {
		all.Name = strings.TrimSuffix(filepath.Base(paths[0]), filepath.Ext(paths[0]))
	}
	for _, p := range paths {
		if strings.EqualFold(filepath.Ext(p), ".parquet") {
			utts, err := data.ReadUtterances(p)
			if err != nil {
				return nil, err
			}
			all.Append(script.FromUtterances(p, utts))
			continue
		}
		s, err := script.ParseFile(p, script.ParseOptions{DropNarration: dropNarration})
		if err != nil {
			return nil, err
		}
		all.Append(s)
	}
	return all, nil
}

// distillJSON is the --json output of `persona distill`.
type distillJSON struct {
	Backend       string               `json:"backend"`
	Fingerprint   string               `json:"fingerprint"`
	Extractive    bool                 `json:"extractive"`
	OutDir        string               `json:"out_dir"`
	Inputs        []string             `json:"inputs"`
	Scenes        int                  `json:"scenes"`
	Lines         int                  `json:"lines"`
	Chunks        int                  `json:"chunks"`
	Characters    []string             `json:"characters"`
	Events        int                  `json:"events"`
	Relationships int                  `json:"relationships"`
	Personas      int                  `json:"personas"`
	Stages        []distill.StageCount `json:"stages"`
	Files         []string             `json:"files"`
	Seconds       float64              `json:"seconds"`
	LLM           *llm.Stats           `json:"llm,omitempty"`
	Config        distill.Config       `json:"config"`
	Prompts       map[string]string    `json:"prompts,omitempty"`
}

func runDistill(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "persona distill", "FILES...")
	def := distill.DefaultConfig()
	backend := fs.String("backend", "extractive", "distillation backend: "+strings.Join(distill.Backends(), ", "))
	out := fs.String("out", "", "output folder (required); a rerun with the same folder resumes")
	asJSON := fs.Bool("json", false, "print one JSON object (see docs/persona.md)")
	minLines := fs.Int("min-lines", def.MinLines, "lines a speaker needs to get a persona")
	maxChars := fs.Int("max-characters", def.MaxCharacters, "keep the characters with most lines (0: all)")
	chars := fs.String("characters", "", "comma-separated characters to distil (overrides --min-lines/--max-characters)")
	minCo := fs.Int("min-co-events", def.MinCoEvents, "events two characters must share to get a relationship (N)")
	chunkLines := fs.Int("chunk-lines", def.Chunk.MaxLines, "most lines per chunk of a scene")
	chunkWords := fs.Int("chunk-words", def.Chunk.MaxWords, "most words per chunk of a scene")
	conc := fs.Int("concurrency", def.Concurrency, "units of work run at once")
	prompts := fs.Bool("prompts", false, "with --json, include every persona prompt")
	acousticFile := fs.String("acoustic", "", "JSON file of the characters' acoustic profiles (the output of roleprint speech profile --json, or {character: tag line}); their prompts then describe their voice")
	client := llmFlags(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	if fs.NArg() == 0 {
		return usagef("no input files: give corpus Parquet files or screenplay text files")
	}
	var opts distill.Options
	if *backend == "llm" {
		c, err := client(true)
		if err != nil {
			return err
		}
		opts.LLM = c
	}
	b, err := distill.NewBackend(*backend, opts)
	if err != nil {
		return usagef("%v", err)
	}
	s, err := loadScripts(fs.Args(), false)
	if err != nil {
		return err
	}
	cfg := def
	cfg.MinLines, cfg.MaxCharacters, cfg.MinCoEvents, cfg.Concurrency = *minLines, *maxChars, *minCo, *conc
	if *acousticFile != "" {
		if cfg.Acoustic, err = distill.ReadAcousticProfiles(*acousticFile); err != nil {
			return err
		}
	}
	cfg.Chunk.MaxLines, cfg.Chunk.MaxWords = *chunkLines, *chunkWords
	if *chars != "" {
		for _, c := range strings.Split(*chars, ",") {
			if c = strings.TrimSpace(c); c != "" {
				cfg.Characters = append(cfg.Characters, c)
			}
		}
	}
	// One progress line per stage; a stage's line is finished when the
	// next stage starts.
	curStage := ""
	var report func(int, int)
	finish := func() {}
	cfg.Progress = func(stage string, done, total int) {
		if stage != curStage {
			finish()
			curStage = stage
			report, finish = e.progress("distill " + stage)
		}
		report(done, total)
	}
	e.Logf("persona distill: %s; backend %s", s, b.Fingerprint())
	res, err := distill.Run(ctx, s, b, *out, cfg, fs.Args()...)
	finish()
	if err != nil {
		return err
	}
	j := distillJSON{Backend: res.Backend, Fingerprint: res.Fingerprint, Extractive: res.Extractive, OutDir: *out, Inputs: fs.Args(),
		Scenes: res.Scenes, Lines: res.Lines, Chunks: res.Chunks, Characters: res.Characters, Events: len(res.Events),
		Relationships: len(res.Relationships), Personas: len(res.Personas), Stages: res.Stages, Seconds: res.Seconds, Config: cfg,
		Files: []string{"manifest.json", "events.json", "events.parquet", "personalities.json", "relationships.json", "styles.json", "personas.json", "personas.parquet"}}
	if opts.LLM != nil {
		st := opts.LLM.Stats()
		j.LLM = &st
	}
	if *prompts {
		j.Prompts = map[string]string{}
		for _, p := range res.Personas {
			j.Prompts[p.Character] = p.Prompt
		}
	}
	if *asJSON {
		return e.JSON(j)
	}
	w := e.Stdout()
	fmt.Fprintf(w, "backend %s (%s)%s\n", res.Backend, res.Fingerprint, map[bool]string{true: " — extractive, no language model", false: ""}[res.Extractive])
	fmt.Fprintf(w, "%d scenes, %d lines, %d chunks; %d characters, %d relationships\n", res.Scenes, res.Lines, res.Chunks, len(res.Characters), len(res.Relationships))
	fmt.Fprintf(w, "%-14s %6s %9s %7s\n", "stage", "units", "computed", "reused")
	for _, st := range res.Stages {
		fmt.Fprintf(w, "%-14s %6d %9d %7d\n", st.Stage, st.Units, st.Computed, st.Reused)
	}
	if j.LLM != nil {
		fmt.Fprintf(w, "llm: %d calls, %d from cache, %d retries, %d prompt + %d completion tokens\n", j.LLM.Calls, j.LLM.CacheHits, j.LLM.Retries, j.LLM.PromptTokens, j.LLM.CompletionTokens)
	}
	fmt.Fprintf(w, "personas: %s\n", filepath.Join(*out, "personas.json"))
	return nil
}

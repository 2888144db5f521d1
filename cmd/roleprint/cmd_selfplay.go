package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/selfplay"
)

func init() {
	register(&command{
		Name:    "selfplay",
		Summary: "generate role-play conversations with a chat model talking to itself (Yang et al. §6.1), or interview answers, for `score`",
		Run:     runSelfPlay,
	})
}

// selfPlayJSON is the --json output of `roleprint selfplay`.
type selfPlayJSON struct {
	Mode     string         `json:"mode"`
	Output   string         `json:"output"`
	Manifest string         `json:"manifest"`
	Journal  string         `json:"journal"`
	Model    string         `json:"model"`
	Roles    int            `json:"roles"`
	Scenes   int            `json:"scenes"`
	Rows     int            `json:"rows"`
	Requests int64          `json:"requests"`
	Replayed int64          `json:"replayed"`
	Ends     map[string]int `json:"ends"`
	LLM      llm.Stats      `json:"llm_stats"`
}

// runSelfPlay generates a corpus: self-play scenes of the --roles, or
// with --interview one answer per role and question. A rerun with the
// same --out resumes from the journal beside it; OUT.lock keeps a second
// run on the same --out from paying for the same requests at once.
func runSelfPlay(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "selfplay", "")
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return usagef("%v", err)
	}
	finishLLM := cfg.RegisterFlags(fs)
	fs.StringVar(&cfg.Model, "model", cfg.Model, "model name (same as --llm-model)")
	fs.StringVar(&cfg.BaseURL, "base-url", cfg.BaseURL, "OpenAI-compatible API root ending in /v1 (same as --llm-base-url)")
	def := selfplay.DefaultConfig()
	rolesFile := fs.String("roles", "", "roles: personas.json (persona distill), RoleBench desc.json, or role<TAB>description[<TAB>source] lines (required)")
	out := fs.String("out", "", "output corpus (Parquet, required; its folder is created); OUT.journal.jsonl, OUT.manifest.json and, while running, OUT.lock go beside it")
	journalPath := fs.String("journal", "", "journal of completed requests (default OUT.journal.jsonl); a rerun replays it")
	interview := fs.String("interview", "", "interview mode: questions (one per line; Character-LLM JSON [{question}]; RoleBench JSONL {role, question}, asked of that role only)")
	pairs := fs.String("pairs", string(def.Pairs), "which roles meet: all (every pair) or paper (pairs of roles of one source, as in the paper)")
	sceneSize := fs.Int("scene-size", 2, "roles per scene, speaking in turn (2: pairs)")
	perPair := fs.Int("per-pair", def.PerPair, "conversations per pair of roles (the two take turns to open)")
	maxTurns := fs.Int("max-turns", def.MaxTurns, "most generated turns per conversation")
	minTurns := fs.Int("min-turns", def.MinTurns, "fewest turns before the end marker is honoured")
	greeting := fs.String("greeting", def.Greeting, "the generic greeting that opens every scene")
	endMarker := fs.String("end-marker", def.EndMarker, "text a reply appends to end the conversation")
	seed := fs.Int64("seed", def.Seed, "sampling seed of the first scene (scene i: seed+i), sent with every request")
	temp := fs.Float64("temperature", def.Temperature, "sampling temperature")
	topP := fs.Float64("top-p", def.TopP, "nucleus sampling mass (0: the server's default)")
	maxTokens := fs.Int("max-tokens", def.MaxTokens, "most tokens per reply")
	conc := fs.Int("concurrency", def.Concurrency, "conversations generated at once")
	rps := fs.Float64("rps", def.RPS, "most requests started per second (0: no limit)")
	agent := fs.String("agent-name", "", "agent_model written in the rows (default: the model name)")
	source := fs.String("source", "", "source written in the rows (default selfplay, or interview)")
	asJSON := fs.Bool("json", false, "print one JSON object {mode, output, manifest, journal, model, roles, scenes, rows, requests, replayed, ends, llm_stats}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := finishLLM(); err != nil {
		return usagef("%v", err)
	}
	if *rolesFile == "" || *out == "" {
		return usagef("--roles FILE and --out FILE.parquet are required")
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q (roles come from --roles)", fs.Args())
	}
	if err := checkLLMEndpoint(cfg); err != nil {
		return err
	}
	p, err := selfplay.ParsePairing(*pairs)
	if err != nil {
		return usagef("--%v", err)
	}
	roles, err := selfplay.LoadRoles(*rolesFile)
	if err != nil {
		return err
	}
	var questions []selfplay.Question
	if *interview != "" {
		if questions, err = selfplay.LoadQuestions(*interview); err != nil {
			return err
		}
	}
	sp := selfplay.Config{AgentModel: *agent, Source: *source, Greeting: *greeting, EndMarker: *endMarker, MaxTurns: *maxTurns, MinTurns: *minTurns,
		Pairs: p, SceneSize: *sceneSize, PerPair: *perPair, Seed: *seed, Temperature: *temp, TopP: *topP, MaxTokens: *maxTokens, Concurrency: *conc, RPS: *rps}
	cfg.Logf = e.Logf
	client, err := llm.New(cfg)
	if err != nil {
		return usagef("%v", err)
	}
	if *journalPath == "" {
		*journalPath = selfplay.SidePath(*out, ".journal.jsonl")
	}
	manifestPath := selfplay.SidePath(*out, ".manifest.json")
	journal, unlock, err := openSelfPlayOutputs(e, *rolesFile, *interview, *out, *journalPath, manifestPath)
	if err != nil {
		return err
	}
	defer unlock()
	defer journal.Close()
	mode := "selfplay"
	if questions != nil {
		mode = "interview"
	}
	report, finish := e.progress(mode + " " + cfg.Model)
	var res *selfplay.Result
	if questions != nil {
		res, err = selfplay.Interview(ctx, client, roles, questions, sp, journal, report)
	} else {
		res, err = selfplay.SelfPlay(ctx, client, roles, sp, journal, report)
	}
	finish()
	if err != nil {
		return err
	}
	if err := checkSomeReplies(res, cfg.Model, *journalPath); err != nil {
		return err
	}
	if err := data.WriteUtterances(*out, res.Rows); err != nil {
		return err
	}
	ep := client.Config().Endpoint()
	ep.Temperature = nil // every request sets its own (config.temperature)
	m := selfplay.NewManifest(mode, sp, ep, roles, questions, res)
	m.Output, m.Journal = *out, *journalPath
	if err := selfplay.WriteManifest(manifestPath, m); err != nil {
		return err
	}
	j := selfPlayJSON{Mode: mode, Output: *out, Manifest: manifestPath, Journal: *journalPath, Model: cfg.Model, Roles: len(roles),
		Scenes: len(res.Scenes), Rows: len(res.Rows), Requests: res.Requests, Replayed: res.Replayed, Ends: m.Ends, LLM: client.Stats()}
	if *asJSON {
		return e.JSON(j)
	}
	fmt.Fprintf(e.Stdout(), "%s: %d conversations, %d rows → %s\n", mode, j.Scenes, j.Rows, *out)
	fmt.Fprintf(e.Stdout(), "requests paid %d, replayed from the journal %d; ends %v\n", j.Requests, j.Replayed, j.Ends)
	if m.CutReplies > 0 {
		fmt.Fprintf(e.Stdout(), "%d replies were cut at --max-tokens %d (finish_reason=length)\n", m.CutReplies, *maxTokens)
	}
	fmt.Fprintf(e.Stdout(), "manifest %s\n", manifestPath)
	return nil
}

// checkSomeReplies fails a run in which every reply of the model was
// empty once cleaned: such a corpus holds no line of the model (only the
// interview questions), and scoring it would measure nothing. The
// journal keeps the replies, so the error says how to ask again.
func checkSomeReplies(res *selfplay.Result, model, journal string) error {
	if len(res.Scenes) == 0 {
		return nil
	}
	for _, sc := range res.Scenes {
		if sc.Turns > 0 {
			return nil
		}
	}
	return fmt.Errorf("model %s gave no usable reply: all %d conversations ended on an empty reply; nothing written "+
		"(check the model name and the server; the replies are kept in %s, delete it to ask again)", model, len(res.Scenes), journal)
}

// openSelfPlayOutputs guards selfplay's outputs (the corpus, journal,
// manifest and lock beside it) against its inputs, creates their folders,
// takes one lock per output and per journal (a --journal shared by two
// outputs is locked as well) and opens the journal, saying when it
// resumes. unlock releases the locks.
func openSelfPlayOutputs(e *env, rolesFile, interview, out, journalPath, manifestPath string) (journal *selfplay.Journal, unlock func(), err error) {
	lockPath := selfplay.SidePath(out, ".lock")
	if err := guardPaths([]string{rolesFile, interview},
		fsx.Output{Flag: "--out", Path: out}, fsx.Output{Flag: "--journal", Path: journalPath},
		fsx.Output{Flag: "manifest", Path: manifestPath}, fsx.Output{Flag: "lock", Path: lockPath}); err != nil {
		return nil, nil, err
	}
	if err := fsx.CheckOwned("--journal", journalPath, "selfplay journal", selfplay.IsJournalFirstLine); err != nil {
		return nil, nil, guardError(err)
	}
	for _, p := range []string{out, journalPath} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, nil, err
		}
	}
	locks := []string{lockPath}
	if journalPath != selfplay.SidePath(out, ".journal.jsonl") {
		locks = append(locks, journalPath+".lock")
	}
	var unlocks []func()
	unlock = func() {
		for i := len(unlocks) - 1; i >= 0; i-- {
			unlocks[i]()
		}
	}
	for _, l := range locks {
		u, err := fsx.Lock(l, e.Logf)
		if err != nil {
			unlock()
			return nil, nil, err
		}
		unlocks = append(unlocks, u)
	}
	journal, err = selfplay.OpenJournal(journalPath)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	if n := journal.Len(); n > 0 {
		e.Logf("selfplay: resuming: %d completed requests in %s", n, journalPath)
	}
	return journal, unlock, nil
}

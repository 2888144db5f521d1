package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers the baseline encoders
	"github.com/roleprint/roleprint/sv/roleplay"
	"github.com/roleprint/roleprint/sv/verifier"
)

func init() {
	register(&command{
		Name:    "score",
		Summary: "score role-playing agents: Simulation, Distinction, Simulation Rank (paper Tables 3, 6, 7)",
		Run:     runScore,
	})
}

// scorePathList is a flag holding files, given as a comma-separated list
// or by repeating the flag.
type scorePathList []string

// String renders the list as the flag would take it (flag.Value).
func (l *scorePathList) String() string { return strings.Join(*l, ",") }

// Set adds the comma-separated paths of one flag occurrence (flag.Value).
func (l *scorePathList) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// runScore reads real and generated corpus files (Parquet, as written by
// `roleprint import`), scores every agent model with an encoder and prints
// the models table, the role matches and, on request, the per-role and
// Simulation Rank tables; --json prints the roleplay.Report instead.
func runScore(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "score", "[GENERATED.parquet...]")
	var realFiles, genFiles scorePathList
	fs.Var(&realFiles, "real", "corpus file(s) with the real lines (rows without agent_model); comma-separated or repeated")
	fs.Var(&genFiles, "generated", "corpus file(s) with the agents' lines (rows with agent_model and role); comma-separated or repeated; files after the flags are added")
	name := fs.String("encoder", "", "encoder name (required); one of: "+strings.Join(sv.EncoderNames(), ", "))
	set := settingsFlag(fs, "set", `encoder settings "key=value;key2=value2" (see docs/reproduce.md)`)
	backend := fs.String("backend", "", "compute backend for GoMLX encoders (go, onnx, xla:cuda); default: automatic")
	batch := fs.Int("batch", 0, "texts per batch (0: the encoder's default)")
	verifierDir := fs.String("verifier", "", "score with a saved verifier bundle (OUT/verifier of reproduce or train) instead of --encoder")
	vs := fs.String("vs", "", "also score with this encoder (a name, or a verifier bundle folder) on the same sets, and compare the separations by a paired role bootstrap (its default settings; --fit-on and --fit-real-only apply to it too)")
	def := roleplay.DefaultConfig()
	grouping := fs.String("grouping", string(def.Grouping), "how utterances form sets: paper (Eq. 2/3 literally: one set per model role, one reference set per real conversation), chunks (sets of --set-size, the old default; set-level bootstrap), conversation (one set per conversation) or role (one set per generated role, real sets chunked)")
	setSize := fs.Int("set-size", def.SetSize, "utterances per set (chunks grouping; real sets of role grouping)")
	minSet := fs.Int("min-set-size", 0, "smallest set kept apart (default: set size / 2)")
	heldOut := fs.Float64("held-out", def.HeldOut, "fraction of each real role's conversations held out as the Real row (0: no Real row)")
	realName := fs.String("real-name", def.RealModel, "name of the reference row")
	boot := fs.Int("bootstrap", def.Bootstrap, "bootstrap replicates for the confidence intervals (0: none)")
	conf := fs.Float64("confidence", def.Confidence, "confidence level of the intervals")
	seed := fs.Int64("seed", def.Seed, "seed of the held-out split, the bootstrap and the distribution samples")
	topK := fs.Int("top-k", def.TopK, "roles listed per Simulation Rank row")
	rankAmong := fs.String("rank-among", string(def.RankAmong), "Simulation Rank candidates: real (a model's sets for a role against every real role; Table 6's reading) or agent (the model's roles against the role's real sets)")
	allReal := fs.Bool("all-real-speakers", false, "make every real speaker a real role (Real row, rank candidate), also those no agent plays")
	fitReal := fs.Bool("fit-real-only", false, "fit TF-IDF and feature statistics on the real texts only (default: on all texts scored)")
	var fitOn scorePathList
	fs.Var(&fitOn, "fit-on", "fit TF-IDF and feature statistics on these texts instead of the scored ones: a verifier bundle folder (its training texts, fit.txt: what the verifier saw), corpus .parquet files or text files (one per line); comma-separated or repeated")
	adapt := fs.Bool("adapt", false, "with --verifier: re-centre its n-gram parts on the texts scored (those --fit-real-only picks): domain adaptation, without labels, for corpora it was not trained on; default on for a bundle with an n-gram part (--adapt=false scores with the bundle as saved)")
	roleMap := fs.String("role-map", "", "file mapping generated roles to real speakers (\"Role = Speaker; Speaker\" lines, or JSON); overrides automatic matching")
	models := fs.String("models", "", "score only these agent models (comma-separated)")
	perRole := fs.Bool("per-role", false, "also print every model's per-role rows")
	var rankRoles scorePathList
	fs.Var(&rankRoles, "rank-role", "print the Simulation Rank table (paper Table 6) of this role; comma-separated or repeated")
	distFile := fs.String("distributions", "", "write the similarity distributions (Figures 1, 2) with every sampled value to this JSON file")
	bins := fs.Int("bins", def.Bins, "histogram bins of the distributions (and of their overlap coefficient)")
	maxPairs := fs.Int("max-distribution-pairs", def.MaxDistributionPairs, "similarities kept per side of a distribution in --distributions (a seeded sample)")
	noPaper := fs.Bool("no-paper", false, "do not print the paper's numbers beside ours")
	asJSON := fs.Bool("json", false, "print one JSON object (the report; distributions without their values)")
	outs := addScoreOutputFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	genFiles = append(genFiles, fs.Args()...)
	*verifierDir = scoreDefaultVerifier(e, *name, *verifierDir)
	adaptSet := false
	fs.Visit(func(f *flag.Flag) { adaptSet = adaptSet || f.Name == "adapt" })
	if err := scoreCheckFlags(*adapt, *fitReal, len(fitOn) > 0, *name, *verifierDir, len(realFiles), len(genFiles)); err != nil {
		return err
	}
	settings, err := sv.ParseSettings(*set)
	if err != nil {
		return usagef("--set: %v", err)
	}
	cfg := roleplay.Config{Grouping: roleplay.Grouping(*grouping), SetSize: *setSize, MinSetSize: *minSet, HeldOut: *heldOut,
		RealModel: *realName, Bootstrap: *boot, Confidence: *conf, Seed: *seed, TopK: *topK, RankAmong: roleplay.RankAmong(*rankAmong),
		AllRealSpeakers: *allReal, FitRealOnly: *fitReal, Adapt: *adapt, Bins: *bins, MaxDistributionPairs: *maxPairs}
	if *roleMap != "" {
		if cfg.RoleMap, err = roleplay.ReadRoleMap(*roleMap); err != nil {
			return err
		}
	}

	// The encoder first: a wrong name or a missing asset fails before the
	// data is read.
	enc, closeEnc, err := scoreEncoder(ctx, e, *verifierDir, *name, sv.EncoderOptions{Backend: *backend, BatchSize: *batch, Settings: settings, Seed: *seed, Logf: e.Logf})
	if err != nil {
		return err
	}
	defer closeEnc()
	*adapt = scoreAdaptDefault(e, enc, adaptSet, *adapt)
	cfg.Adapt = *adapt
	vsEnc, closeVs, err := scoreVsEncoder(ctx, e, *vs, sv.EncoderOptions{Backend: *backend, BatchSize: *batch, Seed: *seed, Logf: e.Logf})
	if err != nil {
		return err
	}
	defer closeVs()
	if len(fitOn) > 0 {
		if err := scoreFitOn(e, enc, *name, *vs, fitOn, &cfg); err != nil {
			return err
		}
	}

	real, gen, err := readScoreInputs(realFiles, genFiles, cfg.RoleMap, *roleMap)
	if err != nil {
		return err
	}
	inDomain, domain := checkScoreDomain(e, *verifierDir, real, gen)
	if *models != "" {
		if gen, err = scoreKeepModels(*models, genFiles, gen, cfg.RoleMap); err != nil {
			return err
		}
	}

	report, finish := e.progress("score: embed " + *name)
	rep, err := roleplay.Score(ctx, enc, real, gen, cfg, report)
	finish()
	if err != nil {
		return err
	}
	if *vs != "" {
		if rep.Comparisons, err = scoreVs(ctx, e, *vs, vsEnc, real, gen, cfg, rep); err != nil {
			return err
		}
		scoreVsNotes(rep, *vs, (*distFile != "" || *outs.out != "") && outs.chunked())
	}
	if err := scoreWriteOutputs(ctx, e, enc, real, gen, cfg, rep, *distFile, outs, args, rankRoles); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(scoreReport{Report: rep, InDomain: inDomain, Domain: domain, Calibration: scoreCalibration(e, enc)})
	}
	scoreCalibration(e, enc)
	if err := printScoreReport(e.Stdout(), rep, cfg.RealModel, !*noPaper, *perRole, rankRoles); err != nil {
		return err
	}
	for _, n := range rep.Notes {
		e.Logf("note: %s", n)
	}
	return nil
}

// scoreFitOn sets cfg's fitting texts from --fit-on for enc (which must
// be an sv.Fitter) and says so.
func scoreFitOn(e *env, enc sv.Encoder, name, vs string, fitOn []string, cfg *roleplay.Config) error {
	if _, ok := enc.(sv.Fitter); !ok {
		return usagef("--fit-on: encoder %s is not fitted on texts (tfidf, liwc, pos, mixed and the other sv.Fitter encoders are)", name)
	}
	var err error
	if cfg.FitTexts, cfg.FitOn, err = readFitOn(fitOn, e); err != nil {
		return err
	}
	also := ""
	if vs != "" {
		also = fmt.Sprintf(", and --vs %s if it is fitted on texts", vs)
	}
	e.Logf("score: %s is fitted on %d texts of %s, not on the texts scored%s", name, len(cfg.FitTexts), cfg.FitOn, also)
	return nil
}

// scoreWriteOutputs writes --distributions and --out's files (their
// distributions are of chunks: chunkedDistributions), then drops the
// distributions' values, which only --distributions holds.
func scoreWriteOutputs(ctx context.Context, e *env, enc sv.Encoder, real, gen []data.Utterance, cfg roleplay.Config, rep *roleplay.Report,
	distFile string, outs *scoreOutputs, args, rankRoles []string) error {
	if (distFile != "" || *outs.out != "") && outs.chunked() {
		if err := chunkedDistributions(ctx, e, enc, real, gen, cfg, rep); err != nil {
			return err
		}
	}
	if distFile != "" {
		if err := writeScoreDistributions(e, distFile, rep); err != nil {
			return err
		}
	}
	if err := outs.write(e, rep, args, rankRoles); err != nil {
		return err
	}
	for i := range rep.Distributions { // values only in --distributions
		rep.Distributions[i].Positive, rep.Distributions[i].Negative = nil, nil
	}
	return nil
}

// writeScoreDistributions writes the report's distributions with every
// sampled value to path (--distributions).
func writeScoreDistributions(e *env, path string, rep *roleplay.Report) error {
	if err := writeScoreJSON(path, struct {
		Encoder       string                  `json:"encoder"`
		Distributions []roleplay.Distribution `json:"distributions"`
	}{rep.Encoder, rep.Distributions}); err != nil {
		return err
	}
	e.Logf("distributions written to %s", path)
	return nil
}

// scoreKeepModels keeps the generated rows of the --models agent models,
// and drops from roleMap the roles none of them plays.
func scoreKeepModels(models string, genFiles []string, gen []data.Utterance, roleMap map[string][]string) ([]data.Utterance, error) {
	keep := map[string]bool{}
	for _, m := range strings.Split(models, ",") {
		keep[strings.TrimSpace(m)] = true
	}
	var kept []data.Utterance
	have := map[string]bool{}
	for _, u := range gen {
		if genimport.IsAgentLine(&u) {
			have[u.AgentModel] = true
		}
		if keep[u.AgentModel] {
			kept = append(kept, u)
		}
	}
	if countAgentRows(kept) == 0 {
		return nil, usagef("--models %s: no generated rows of these models in %s (models there: %s)", models, strings.Join(genFiles, ", "), strings.Join(slices.Sorted(maps.Keys(have)), ", "))
	}
	roles := map[string]bool{}
	for _, r := range agentRoles(kept) {
		roles[data.NormalizeCharacterName(r)] = true
	}
	for k := range roleMap {
		if !roles[data.NormalizeCharacterName(k)] {
			delete(roleMap, k)
		}
	}
	return kept, nil
}

// printScoreReport prints the report's tables: the models (beside the
// paper's numbers with paper), the role matches, with perRole every
// model's roles, the common-roles table when needed, the Simulation Rank
// of each of rankRoles, the distributions and the comparisons.
func printScoreReport(w io.Writer, rep *roleplay.Report, realModel string, paper, perRole bool, rankRoles []string) error {
	if err := roleplay.WriteModels(w, rep, paper); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nRole matches (generated role → real speakers):")
	if err := roleplay.WriteMatches(w, rep); err != nil {
		return err
	}
	if perRole {
		fmt.Fprintln(w, "\nPer role:")
		if err := roleplay.WritePerRole(w, rep); err != nil {
			return err
		}
	}
	if roleplay.NeedsCommon(rep) {
		fmt.Fprintf(w, "\nOn the real roles each model shares with the %s row (comparable; ×100):\n", realModel)
		if err := roleplay.WriteCommon(w, rep); err != nil {
			return err
		}
	}
	for _, role := range rankRoles {
		fmt.Fprintf(w, "\nSimulation Rank of %s (%s; similarity ×100):\n", role, rep.Config.RankAmong.Describe())
		if err := roleplay.WriteRanks(w, rep, role, nil); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "\nSimilarity distributions (Figures 1, 2):")
	if err := roleplay.WriteDistributions(w, rep); err != nil {
		return err
	}
	if len(rep.Comparisons) > 0 {
		fmt.Fprintf(w, "\nSeparation against %s on the same sets (grouping %s; paired role bootstrap, %d replicates, %.0f %%; AUC ×100):\n",
			rep.Comparisons[0].B, rep.Config.Grouping, rep.Config.Bootstrap, 100*rep.Config.Confidence)
		if err := roleplay.WriteComparisons(w, rep); err != nil {
			return err
		}
	}
	return nil
}

// scoreCheckFlags rejects flags that do not go together and missing
// required ones.
func scoreCheckFlags(adapt, fitReal, fitOn bool, name, verifierDir string, realFiles, genFiles int) error {
	switch {
	case adapt && verifierDir == "":
		return usagef("--adapt re-centres a verifier bundle (--verifier DIR); an --encoder is fitted on the scored texts already (or on --fit-on's)")
	case fitOn && verifierDir != "":
		return usagef("--fit-on fits an --encoder; a verifier bundle is fitted on its own training texts (and --adapt re-centres it on the scored ones); to fit a --vs encoder on other texts, make it the --encoder and the bundle --vs")
	case fitOn && fitReal:
		return usagef("--fit-on and --fit-real-only both say what to fit on: give one")
	case name == "" && verifierDir == "":
		return usagef("--encoder is required (one of: %s), or --verifier DIR", strings.Join(sv.EncoderNames(), ", "))
	case realFiles == 0:
		return usagef("--real is required: the corpus file(s) with the roles' real lines")
	case genFiles == 0:
		return usagef("--generated is required: the corpus file(s) with the agents' lines")
	}
	if _, ft := sv.SplitFineTuned(name); ft {
		return usagef("encoder %s: score uses untrained or checkpointed encoders; fine-tune with `roleprint train` first and score with --verifier OUT/verifier", name)
	}
	return nil
}

// readScoreInputs reads the real and generated corpus files, checks that
// each has rows of its kind, and checks roleMap (read from roleMapFile)
// against every generated role.
func readScoreInputs(realFiles, genFiles []string, roleMap map[string][]string, roleMapFile string) (real, gen []data.Utterance, err error) {
	real, err = data.ReadUtterances(realFiles...)
	if err != nil {
		return nil, nil, err
	}
	gen, err = data.ReadUtterances(genFiles...)
	if err != nil {
		return nil, nil, err
	}
	if n := countRealRows(real); n == 0 {
		return nil, nil, fmt.Errorf("%s: no real rows (rows without agent_model)", strings.Join(realFiles, ", "))
	}
	if n := countAgentRows(gen); n == 0 {
		return nil, nil, fmt.Errorf("%s: no generated rows (rows with agent_model whose speaker is their role); import generated data with --format rolebench, chatharuhi or character-llm", strings.Join(genFiles, ", "))
	}
	// The role map is checked against every generated role, before
	// --models leaves some out (one map serves runs of single models).
	if roleMap != nil {
		if err := roleplay.CheckRoleMap(roleMap, agentRoles(gen), realSpeakers(real)); err != nil {
			return nil, nil, fmt.Errorf("--role-map %s: %w", roleMapFile, err)
		}
	}
	return real, gen, nil
}

// scoreVsNotes notes what the comparisons with vs cover: the grouping's
// sets, not the chunks of the distributions written (writesDist), and the
// comparisons without paired replicates.
func scoreVsNotes(rep *roleplay.Report, vs string, writesDist bool) {
	if writesDist {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the comparisons with %s are of the %s grouping's sets; the distributions written (--out, --distributions) are of chunks of %d, and --out's tables and report.html do not show the comparisons", vs, rep.Config.Grouping, rep.Config.SetSize))
	}
	for _, c := range rep.Comparisons {
		if c.Replicates == 0 && c.AUCDiff.Defined() && rep.Config.Bootstrap > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("comparison %s %s with %s: no paired replicates (a similarity of one encoder is NaN, or fewer than two roles): no interval", c.Model, c.Kind, vs))
		}
	}
}

// agentRoles lists the roles of the agents' own lines.
func agentRoles(utts []data.Utterance) []string {
	seen := map[string]bool{}
	for i := range utts {
		if genimport.IsAgentLine(&utts[i]) {
			seen[utts[i].Role] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// realSpeakers lists the speakers of the real rows.
func realSpeakers(utts []data.Utterance) []string {
	seen := map[string]bool{}
	for i := range utts {
		if utts[i].AgentModel == "" {
			seen[utts[i].Speaker] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func countRealRows(utts []data.Utterance) int {
	n := 0
	for i := range utts {
		if utts[i].AgentModel == "" {
			n++
		}
	}
	return n
}

func countAgentRows(utts []data.Utterance) int {
	n := 0
	for i := range utts {
		if genimport.IsAgentLine(&utts[i]) {
			n++
		}
	}
	return n
}

// writeScoreJSON writes v as indented JSON to path atomically.
func writeScoreJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return fsx.WriteFileAll(path, append(b, '\n'), 0o644)
}

// scoreAdaptDefault is --adapt for enc: as given, else on for a bundle
// with a part that adapts. A bundle's n-gram parts know the shows they
// were trained on; adapted to the scored texts they transfer
// (docs/eval.md, "Transfer to unseen corpora").
func scoreAdaptDefault(e *env, enc sv.Encoder, given bool, adapt bool) bool {
	if c, ok := enc.(interface{ CanAdapt() bool }); ok && !given && c.CanAdapt() {
		e.Logf("score: adapting the verifier's n-gram parts to the scored texts (the default for a bundle; --adapt=false scores with it as saved)")
		return true
	}
	return adapt
}

// scoreCalibration is the calibration a bundle's role-play similarity read
// its scores through (verifier.SimilarityCalibration; nil when the
// similarity is no probability); it says on stderr what that was fitted
// on, and warns when on scores of another kind.
func scoreCalibration(e *env, enc sv.Encoder) *verifier.ModeCalibration {
	mc, ok := verifier.SimilarityCalibration(enc)
	if !ok {
		return nil
	}
	e.Logf("score: P(same) of scores %s, calibrated on %s", strings.ReplaceAll(mc.Scoring, "_", " "), calibrationLabel(mc.Source, mc.FittedOn))
	if !mc.Matches() {
		e.Logf("score: note: %s", mc.Note)
	}
	return &mc
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/distill"
	"github.com/roleprint/roleprint/persona/judge"
	"github.com/roleprint/roleprint/persona/script"
	"github.com/roleprint/roleprint/speech"

	"github.com/roleprint/roleprint/internal/fsx"
)

func init() {
	register(&command{
		Name:    "judge",
		Summary: "LLM-judge scores: SpeechRole ratio table, VoxRole six dimensions, context-length ablation",
		Run:     runJudge,
	})
}

// readJSONL decodes one T per non-blank line of path; the error names the
// file and line.
func readJSONL[T any](path string) ([]T, error) {
	f, err := fsx.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := newLineScanner(bufio.NewScanner(f), maxRecordBytes)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v T
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w (expected one JSON object per line; see docs/persona.md)", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(path, n+1, err, maxRecordBytes)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no records", path)
	}
	return out, nil
}

// judgeSystemJSON is one system row of `judge --json`.
type judgeSystemJSON struct {
	System    string             `json:"system"`
	N         int                `json:"n"`
	Scores    map[string]float64 `json:"scores"`
	Overall   float64            `json:"overall"`
	Instances any                `json:"instances,omitempty"`
	// SpeechJudgedOn says what the speech dimensions (SF, SN, PC, EA)
	// were judged on (speechrole): "audio", "text" (transcripts and tags
	// only: the fallback) or "mixed: N pairs on audio, M on text".
	SpeechJudgedOn string `json:"speech_judged_on,omitempty"`
}

// judgeJSON is the --json output of `roleprint judge`.
type judgeJSON struct {
	Protocol   string            `json:"protocol"`
	Judge      string            `json:"judge"`
	Offline    bool              `json:"offline"`
	Dimensions []string          `json:"dimensions,omitempty"`
	Systems    []judgeSystemJSON `json:"systems,omitempty"`
	// Ablation fields.
	Agent   string               `json:"agent,omitempty"`
	Ks      []int                `json:"ks,omitempty"`
	KCounts string               `json:"k_counts,omitempty"`
	N       int                  `json:"n,omitempty"`
	Overall []float64            `json:"overall,omitempty"`
	ByK     []map[string]float64 `json:"scores_by_k,omitempty"`
	// AcousticProfiles are the characters' tag lines computed from
	// --audio-corpus, and ProfilesFilled how many instances (or ablation
	// targets) got their empty profile from them.
	AcousticProfiles map[string]string `json:"acoustic_profiles,omitempty"`
	ProfilesFilled   *int              `json:"profiles_filled,omitempty"`
}

func systemName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

func runJudge(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "judge", "FILES...")
	protocol := fs.String("protocol", "speechrole", "speechrole (FILES: JSONL of SpeechRole instances, one system per file), voxrole (JSONL of VoxRole instances, one system per file) or ablation (FILES: corpus Parquet or script files)")
	judgeName := fs.String("judge", "lexical", "judge: lexical (offline text-similarity heuristic) or llm (needs --llm-model)")
	asJSON := fs.Bool("json", false, "print one JSON object (see docs/persona.md)")
	jouts := addJudgeOutputFlags(fs)
	perInstance := fs.Bool("per-instance", false, "with --json, include every instance's scores")
	agentName := fs.String("agent", "retrieval", "ablation: the agent answering (retrieval: offline, answers with the role's own lines from other scenes; llm: the --llm-model)")
	ksFlag := fs.String("k", "4,6,8,10", "ablation: context lengths (turns)")
	roles := fs.String("roles", "", "ablation: comma-separated roles (default: the 5 speakers with most lines)")
	perRole := fs.Int("per-role", 20, "ablation: target lines per role")
	personas := fs.String("personas", "", "ablation: personas.json from 'roleprint persona distill' (personas become the agent's prompt and the judge's persona)")
	audio := addJudgeAudioFlags(fs)
	judgeAudio := fs.Bool("judge-audio", false, "speechrole with --judge llm: send the instances' candidate_audio/reference_audio recordings to the judge as input_audio parts, so SF, SN, PC and EA are judged on speech (instances without recordings fall back to transcripts; the report says which)")
	promptsDir := fs.String("judge-prompts", "", "with --judge llm: folder of prompt templates replacing the embedded ones ("+strings.Join(judge.PromptNames, ", ")+"; see docs/persona.md)")
	client := llmFlags(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no input files")
	}
	if *promptsDir != "" && *judgeName != "llm" {
		return usagef("--judge-prompts goes with --judge llm")
	}
	prompts, err := judge.DefaultPrompts()
	if *promptsDir != "" {
		prompts, err = judge.LoadPrompts(*promptsDir)
	}
	if err != nil {
		return err
	}
	c, err := client(*judgeName == "llm" || *agentName == "llm")
	if err != nil {
		return err
	}
	pj, vj, err := newJudges(e, *judgeName, c, prompts)
	if err != nil {
		return err
	}
	out := judgeJSON{Protocol: *protocol, Judge: vj.Name(), Offline: *judgeName == "lexical"}
	if *judgeAudio && (*judgeName != "llm" || *protocol != "speechrole") {
		return usagef("--judge-audio goes with --protocol speechrole --judge llm")
	}
	if *protocol == "speechrole" && *audio.corpus != "" {
		return usagef("--audio-corpus goes with --protocol voxrole or ablation (SpeechRole instances carry their own tags)")
	}
	acoustic, err := audio.load(ctx, e)
	if err != nil {
		return err
	}
	filled := 0
	seenRoles := map[string]bool{}
	if acoustic != nil {
		out.AcousticProfiles, out.ProfilesFilled = acoustic.Lines, &filled
	}
	noteAcoustic := func() {
		if acoustic == nil {
			return
		}
		e.Logf("judge: acoustic profiles of %d characters from %s filled %d profiles", len(acoustic.Tags), *audio.corpus, filled)
		if m := acoustic.missing(seenRoles); len(m) > 0 {
			e.Logf("judge: no audio for %s: their profiles stay as given", strings.Join(m, ", "))
		}
	}
	switch *protocol {
	case "speechrole":
		if err := judgeSpeechRoleFiles(ctx, e, fs.Args(), pj, c, prompts, *judgeAudio, *perInstance, &out); err != nil {
			return err
		}
	case "voxrole":
		if err := judgeVoxRoleFiles(ctx, e, fs.Args(), vj, *perInstance, acoustic, seenRoles, &filled, &out); err != nil {
			return err
		}
	case "ablation":
		ks, err := parseInts(*ksFlag)
		if err != nil {
			return usagef("--k: %v", err)
		}
		items, utts, roleList, err := judgeAblationItems(e, fs.Args(), *roles, *personas, ks, *perRole, acoustic, seenRoles, &filled)
		if err != nil {
			return err
		}
		items, agent, err := ablationAgent(e, *agentName, c, utts, items, roleList)
		if err != nil {
			return err
		}
		rep, fin := e.progress("ablation")
		tab, err := judge.ContextAblation(ctx, agent, vj, items, ks, rep)
		fin()
		if err != nil {
			return err
		}
		out.Agent, out.Ks, out.N, out.Overall, out.ByK, out.KCounts = tab.Agent, tab.Ks, tab.N, tab.Overall, tab.Scores, tab.KCounts
		out.Dimensions = judge.Codes(judge.VoxRoleDimensions)
		noteAcoustic()
		if err := jouts.write(e, &out); err != nil {
			return err
		}
		if *asJSON {
			return e.JSON(out)
		}
		printAblation(e.Stdout(), tab)
		return nil
	default:
		return usagef("unknown --protocol %q (speechrole, voxrole, ablation)", *protocol)
	}
	noteAcoustic()
	if err := jouts.write(e, &out); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(out)
	}
	printJudgeTable(e.Stdout(), *protocol, &out)
	return nil
}

// judgeAblationItems reads the ablation's corpus files and returns its
// target lines (items with at least the largest of ks turns of history,
// up to perRole per role, the personas' prompts as the agent's), their
// profiles filled from acoustic (counted in filled; roles added to
// seenRoles) and their context turns tagged from the recordings, with the
// corpus's utterances and the roles.
func judgeAblationItems(e *env, files []string, roles, personas string, ks []int, perRole int, acoustic *judgeAcoustic, seenRoles map[string]bool, filled *int) ([]judge.AblationItem, []data.Utterance, []string, error) {
	s, err := loadScripts(files, true)
	if err != nil {
		return nil, nil, nil, err
	}
	utts := s.Utterances("", false)
	roleList := ablationRoles(roles, s)
	pm, err := readPersonaPrompts(personas)
	if err != nil {
		return nil, nil, nil, err
	}
	maxK := 0
	for _, k := range ks {
		maxK = max(maxK, k)
	}
	items := judge.AblationItems(utts, roleList, pm, maxK, perRole)
	if len(items) == 0 {
		return nil, nil, nil, fmt.Errorf("no target lines with %d turns of history for roles %v", maxK, roleList)
	}
	for i := range items {
		seenRoles[items[i].Role] = true
		if acoustic.fill(items[i].Role, &items[i].Profile) {
			*filled++
		}
	}
	// Per-sentence tags of the history turns from the corpus rows'
	// recordings (audio_path relative to the first input's folder).
	tagged, err := judge.FillAblationTags(items, filepath.Dir(files[0]), speech.DefaultConfig())
	if err != nil {
		return nil, nil, nil, err
	}
	if tagged > 0 {
		e.Logf("judge: ablation: acoustic tags of %d context turns computed from their recordings (20/60/20 %% per speaker)", tagged)
	}
	return items, utts, roleList, nil
}

// newJudges returns the pair judge (SpeechRole) and the judge (VoxRole,
// ablation) named by --judge.
func newJudges(e *env, name string, c *llm.Client, prompts *llm.Prompts) (judge.PairJudge, judge.Judge, error) {
	switch name {
	case "lexical":
		lj := judge.NewLexicalJudge()
		return lj, lj, nil
	case "llm":
		for _, h := range prompts.Hashes() {
			e.Logf("judge: prompt template %s", h)
		}
		return &judge.LLMPairJudge{Client: c, Prompts: prompts}, &judge.LLMJudge{Client: c, Prompts: prompts}, nil
	default:
		return nil, nil, usagef("unknown --judge %q (lexical, llm)", name)
	}
}

// judgeSpeechRoleFiles scores each SpeechRole JSONL file as one system
// into out.
func judgeSpeechRoleFiles(ctx context.Context, e *env, files []string, pj judge.PairJudge, c *llm.Client, prompts *llm.Prompts, judgeAudio, perInstance bool, out *judgeJSON) error {
	out.Dimensions = judge.Codes(judge.SpeechRoleDimensions)
	for _, p := range files {
		insts, err := readJSONL[judge.SRInstance](p)
		if err != nil {
			return err
		}
		sj := speechRoleJudge(pj, c, prompts, judgeAudio, p)
		rep, fin := e.progress("judge " + systemName(p))
		res, err := judge.ScoreSpeechRole(ctx, sj, systemName(p), insts, rep)
		fin()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		row := judgeSystemJSON{System: res.System, N: res.N, Scores: res.Ratio, Overall: res.Overall, SpeechJudgedOn: speechJudgedOn(sj)}
		if sj != pj {
			out.Judge = sj.Name()
		}
		if perInstance {
			row.Instances = res.Instances
		}
		out.Systems = append(out.Systems, row)
	}
	return nil
}

// judgeVoxRoleFiles scores each VoxRole JSONL file as one system into
// out, filling the profiles from acoustic (counted in filled; the roles
// met are added to seenRoles).
func judgeVoxRoleFiles(ctx context.Context, e *env, files []string, vj judge.Judge, perInstance bool, acoustic *judgeAcoustic, seenRoles map[string]bool, filled *int, out *judgeJSON) error {
	out.Dimensions = judge.Codes(judge.VoxRoleDimensions)
	for _, p := range files {
		insts, err := readJSONL[judge.VRInstance](p)
		if err != nil {
			return err
		}
		// Per-sentence tags from the recordings the instances name
		// (paths relative to the JSONL file's folder).
		tagged, err := judge.FillSentenceTags(insts, filepath.Dir(p), speech.DefaultConfig())
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if tagged > 0 {
			e.Logf("judge: %s: acoustic tags of %d sentences computed from their recordings (20/60/20 %% per speaker)", p, tagged)
		}
		for i := range insts {
			seenRoles[insts[i].Role] = true
			if acoustic.fill(insts[i].Role, &insts[i].Profile) {
				*filled++
			}
		}
		rep, fin := e.progress("judge " + systemName(p))
		res, err := judge.ScoreVoxRole(ctx, vj, systemName(p), insts, rep)
		fin()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		row := judgeSystemJSON{System: res.System, N: res.N, Scores: res.Scores, Overall: res.Overall}
		if perInstance {
			row.Instances = res.Instances
		}
		out.Systems = append(out.Systems, row)
	}
	return nil
}

// ablationRoles returns the roles of --roles, or the 5 speakers of s with
// most lines.
func ablationRoles(roles string, s *script.Script) []string {
	var roleList []string
	if roles != "" {
		for _, r := range strings.Split(roles, ",") {
			roleList = append(roleList, strings.TrimSpace(r))
		}
		return roleList
	}
	for _, sc := range s.Speakers(1) {
		if len(roleList) == 5 {
			break
		}
		roleList = append(roleList, sc.Speaker)
	}
	return roleList
}

// readPersonaPrompts reads --personas (personas.json from `roleprint
// persona distill`) into prompts by character; "" gives none.
func readPersonaPrompts(path string) (map[string]string, error) {
	pm := map[string]string{}
	if path == "" {
		return pm, nil
	}
	b, err := fsx.ReadFile(path, fsx.MaxInput)
	if err != nil {
		return nil, err
	}
	var ps []distill.Persona
	if err := json.Unmarshal(b, &ps); err != nil {
		return nil, fmt.Errorf("%s: %w (expected personas.json from `roleprint persona distill`)", path, err)
	}
	for _, p := range ps {
		pm[p.Character] = p.Prompt
	}
	return pm, nil
}

// ablationAgent returns the --agent answering the ablation and the items
// it can answer (the retrieval agent needs a line of the role outside the
// item's conversation; the items it cannot answer are left out with a
// note).
func ablationAgent(e *env, name string, c *llm.Client, utts []data.Utterance, items []judge.AblationItem, roleList []string) ([]judge.AblationItem, judge.Agent, error) {
	switch name {
	case "retrieval":
		ra := judge.NewRetrievalAgent(utts)
		kept := items[:0]
		dropped := map[string]int{}
		for _, it := range items {
			if ra.CanAnswer(it) {
				kept = append(kept, it)
			} else {
				dropped[it.Role]++
			}
		}
		for _, r := range sortedKeys(dropped) {
			e.Logf("judge: ablation: %d target lines of %s left out: the retrieval agent has no line of %s outside their own conversation", dropped[r], r, r)
		}
		if len(kept) == 0 {
			return nil, nil, fmt.Errorf("ablation: the retrieval agent can answer none of the %d target lines (roles %v speak in one conversation only; give more input files or --roles)", len(items), roleList)
		}
		return kept, ra, nil
	case "llm":
		return items, &judge.LLMAgent{Client: c}, nil
	default:
		return nil, nil, usagef("unknown --agent %q (retrieval, llm)", name)
	}
}

// printAblation prints the context-length ablation table (VoxRole Table 4).
func printAblation(w io.Writer, tab *judge.AblationTable) {
	fmt.Fprintf(w, "Context-length ablation (VoxRole Table 4): agent %s, judge %s, %d target lines (%s)\n", tab.Agent, tab.Judge, tab.N, tab.KCounts)
	fmt.Fprintf(w, "%-24s", "Context length")
	for _, k := range tab.Ks {
		fmt.Fprintf(w, "%8d", k)
	}
	fmt.Fprintf(w, "\n%-24s", tab.Agent)
	for _, v := range tab.Overall {
		fmt.Fprintf(w, "%8.2f", v)
	}
	fmt.Fprintln(w)
}

// printJudgeTable prints one row per system: its score per dimension,
// overall and N.
func printJudgeTable(w io.Writer, protocol string, out *judgeJSON) {
	fmt.Fprintf(w, "%s scores, judge %s\n%-24s", protocol, out.Judge, "System")
	for _, d := range out.Dimensions {
		fmt.Fprintf(w, "%12s", d)
	}
	fmt.Fprintf(w, "%9s%6s\n", "Overall", "N")
	for _, s := range out.Systems {
		fmt.Fprintf(w, "%-24s", s.System)
		for _, d := range out.Dimensions {
			if v, ok := s.Scores[d]; ok {
				fmt.Fprintf(w, "%12.3f", v)
			} else {
				fmt.Fprintf(w, "%12s", "–")
			}
		}
		fmt.Fprintf(w, "%9.3f%6d", s.Overall, s.N)
		if s.SpeechJudgedOn != "" {
			fmt.Fprintf(w, "  speech dimensions judged on %s", s.SpeechJudgedOn)
		}
		fmt.Fprintln(w)
	}
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no values")
	}
	return out, nil
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

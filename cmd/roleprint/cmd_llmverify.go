package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/llmverify"
)

func init() {
	register(&command{
		Name:    "llm-verify",
		Summary: "ask a chat model whether two utterance sets share a speaker (paper Table 1)",
		Run:     runLLMVerify,
	})
}

// llmVerifyOutput is the --json output of `roleprint llm-verify`.
type llmVerifyOutput struct {
	Model string `json:"model"`
	N     int    `json:"n"`
	// PromptsDir is the --prompts folder ("" for the embedded templates);
	// Templates each template's sha256 by file name.
	PromptsDir string              `json:"prompts_dir"`
	Templates  map[string]string   `json:"templates"`
	Results    []*llmverify.Result `json:"results"`
	Skipped    []string            `json:"skipped"`
	Stats      llm.Stats           `json:"llm_stats"`
}

// runLLMVerify runs Table 1: for each view (conversation, utterances) and
// prompting (zero-shot, CoT, K-shot) it asks the configured model about a
// balanced sample of test pairs and prints accuracy and F1.
func runLLMVerify(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "llm-verify", "[TEST-PAIRS.jsonl...]")
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return usagef("%v", err)
	}
	cfg.Logf = e.Logf
	finishLLM := cfg.RegisterFlags(fs)
	views := fs.String("views", "conversation,utterances", "views to run: conversation (whole conversations, speakers marked), utterances (the two sets only)")
	promptings := fs.String("promptings", "zero-shot,cot,2-shot,4-shot,6-shot", "promptings to run: zero-shot, cot, K-shot (K even), K-shot-cot")
	promptsDir := fs.String("prompts", "", "folder of prompt templates replacing the embedded ones ("+strings.Join(llmverify.TemplateNames, ", ")+"; see docs/roleplay.md); a list of promptings here is read as --promptings, its old name")
	n := fs.Int("n", 200, "pairs asked per option, half of each label, as in the paper (0: all)")
	seed := fs.Int64("seed", 1, "seed of the sample and of the demonstrations")
	trainFile := fs.String("train", "", "pair records (JSONL) to draw K-shot demonstrations from")
	pairsDir := fs.String("pairs", "", "read test (and training) pairs from this folder written by roleprint pairs instead of pair records")
	testKey := fs.String("test", "unseen-unseen-base", "with --pairs: the test set (exposure-level, e.g. unseen-unseen-hard)")
	var corpusFiles scorePathList
	fs.Var(&corpusFiles, "corpus", "with --pairs: the corpus file(s) the pairs were built from, for the conversation view")
	maxTokens := fs.Int("max-tokens", 0, "bound each reply (0: the server's default)")
	predFile := fs.String("predictions", "", "write every reply and verdict to this JSON file")
	saveRecords := fs.String("save-records", "", "write the sampled test pairs as pair records (JSONL) to this file")
	asJSON := fs.Bool("json", false, "print one JSON object {model, n, results, skipped, llm_stats}")
	outs := addLLMVerifyOutputFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := finishLLM(); err != nil {
		return usagef("%v", err)
	}
	if cfg.Model == "" {
		return usagef("no LLM endpoint configured: set --llm-base-url and --llm-model (or %s and %s; the key goes in %s or %s)",
			llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvOpenAIKey)
	}
	if cfg.BaseURL == llm.DefaultBaseURL && cfg.APIKey == "" {
		return usagef("the default endpoint (%s) needs an API key: set %s or %s, or point --llm-base-url at a local server", llm.DefaultBaseURL, llm.EnvAPIKey, llm.EnvOpenAIKey)
	}
	vs, templates, ps, err := llmVerifyOptions(*views, promptings, promptsDir)
	if err != nil {
		return err
	}

	// Pairs.
	test, train, err := llmVerifyItems(*pairsDir, fs.Args(), *testKey, corpusFiles, *trainFile, *n, *seed, *saveRecords)
	if err != nil {
		return err
	}
	client, err := llm.New(cfg)
	if err != nil {
		return err
	}

	out := llmVerifyOutput{Model: cfg.Model, N: len(test), PromptsDir: *promptsDir, Templates: templates.SHA256}
	for _, h := range templates.Hashes() {
		e.Logf("llm-verify: template %s", h)
	}
	for _, v := range vs {
		if v == llmverify.Conversation {
			if why := conversationViewProblem(test); why != "" {
				out.Skipped = append(out.Skipped, "conversation view: "+why)
				continue
			}
		}
		for _, p := range ps {
			if p.K > 0 && len(train) == 0 {
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s %s: no training pairs for demonstrations (--train or --pairs)", v, p))
				continue
			}
			report, finish := e.progress(fmt.Sprintf("llm-verify %s %s", v, p))
			res, err := llmverify.Run(ctx, client, test, train, llmverify.Config{View: v, Prompting: p, Seed: *seed, MaxTokens: *maxTokens, Templates: templates}, report)
			finish()
			if err != nil {
				return err
			}
			if res.Unparsed > 0 {
				e.Logf("llm-verify %s %s: %d of %d replies give no usable verdict (none, or cut at the token limit: raise --max-tokens); they count as \"different\" and are not cached, so a rerun asks again (--llm-refresh also re-asks such replies cached by older runs)", v, p, res.Unparsed, res.N)
			}
			out.Results = append(out.Results, res)
		}
	}
	out.Stats = client.Stats()
	if *predFile != "" {
		if err := writeScoreJSON(*predFile, out); err != nil {
			return err
		}
	}
	for _, r := range out.Results {
		r.Predictions = nil
	}
	if err := outs.write(e, cfg.Model, &out, *testKey); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(out)
	}
	writeTable1(e, out, vs, ps)
	for _, s := range out.Skipped {
		e.Logf("skipped: %s", s)
	}
	e.Logf("%s: %d calls, %d from cache, %d retries", cfg.Model, out.Stats.Calls, out.Stats.CacheHits, out.Stats.Retries)
	return nil
}

// llmVerifyOptions parses --views and --promptings and loads the prompt
// templates (--prompts: a folder replacing the embedded ones; anything
// else is read as --promptings, the flag's old meaning, and promptsDir is
// cleared).
func llmVerifyOptions(views string, promptings, promptsDir *string) ([]llmverify.View, *llmverify.Templates, []llmverify.Prompting, error) {
	var vs []llmverify.View
	for _, s := range strings.Split(views, ",") {
		v, err := llmverify.ParseView(s)
		if err != nil {
			return nil, nil, nil, usagef("--views: %v", err)
		}
		vs = append(vs, v)
	}
	templates, err := llmverify.DefaultTemplates()
	if err != nil {
		return nil, nil, nil, err
	}
	promptingFlag := "--promptings"
	if *promptsDir != "" {
		if st, err := os.Stat(*promptsDir); err == nil && st.IsDir() {
			if templates, err = llmverify.LoadTemplates(*promptsDir); err != nil {
				return nil, nil, nil, usagef("--prompts: %v", err)
			}
		} else {
			// The flag's old meaning: the list of promptings.
			*promptings, promptingFlag = *promptsDir, "--prompts (not a folder, so read as --promptings)"
			*promptsDir = ""
		}
	}
	var ps []llmverify.Prompting
	for _, s := range strings.Split(*promptings, ",") {
		p, err := llmverify.ParsePrompting(s)
		if err != nil {
			return nil, nil, nil, usagef("%s: %v", promptingFlag, err)
		}
		ps = append(ps, p)
	}
	return vs, templates, ps, nil
}

// llmVerifyItems reads the test pairs (a pair folder or pair-record
// files) and the demonstrations' training pairs, samples n test pairs
// with seed, and saves them as pair records when saveRecords is set.
func llmVerifyItems(pairsDir string, files []string, testKey string, corpusFiles []string, trainFile string, n int, seed int64, saveRecords string) (test, train []llmverify.Item, err error) {
	switch {
	case pairsDir != "" && len(files) > 0:
		return nil, nil, usagef("give either --pairs DIR or pair-record files, not both")
	case pairsDir != "":
		test, train, err = llmVerifyFromPairDir(pairsDir, testKey, corpusFiles)
		if err != nil {
			return nil, nil, err
		}
	case len(files) > 0:
		recs, err := genimport.ReadPairRecords(files...)
		if err != nil {
			return nil, nil, err
		}
		test = llmverify.ItemsFromRecords(recs, "test")
	default:
		return nil, nil, usagef("no test pairs: give pair-record files (JSONL) or --pairs DIR")
	}
	if trainFile != "" {
		recs, err := genimport.ReadPairRecords(trainFile)
		if err != nil {
			return nil, nil, err
		}
		train = llmverify.ItemsFromRecords(recs, "train")
	}
	if test, err = llmverify.Sample(test, n, seed); err != nil {
		return nil, nil, err
	}
	if saveRecords != "" {
		if err := genimport.WritePairRecords(saveRecords, llmverify.RecordsFromItems(test)); err != nil {
			return nil, nil, err
		}
	}
	return test, train, nil
}

// conversationViewProblem says why the conversation view cannot be run on
// items ("" when it can).
func conversationViewProblem(items []llmverify.Item) string {
	for _, it := range items {
		if len(it.A.Conversation) == 0 || len(it.B.Conversation) == 0 {
			return "the pairs carry no conversations (pair records without anchor_conversation, or --pairs without --corpus)"
		}
		if slices.Equal(it.A.Conversation, it.B.Conversation) {
			return "pairs share a conversation (Harder level), so it would show the answer"
		}
	}
	return ""
}

// llmVerifyFromPairDir reads a pair folder's test set and training pairs.
func llmVerifyFromPairDir(dir, key string, corpus []string) (test, train []llmverify.Item, err error) {
	c, err := pairs.ReadPairDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var tk *pairs.TestKey
	var known []string
	for _, ex := range pairs.Exposures {
		for _, lv := range pairs.Levels {
			k := pairs.TestKey{Exposure: ex, Level: lv}
			known = append(known, k.String())
			if k.String() == key {
				tk = &k
			}
		}
	}
	if tk == nil {
		return nil, nil, usagef("--test %q: want one of %s", key, strings.Join(known, ", "))
	}
	var utts []data.Utterance
	if len(corpus) > 0 {
		if utts, err = data.ReadUtterances(corpus...); err != nil {
			return nil, nil, err
		}
	}
	if test, err = llmverify.ItemsFromPairCorpus(c, c.Tests[*tk], utts); err != nil {
		return nil, nil, err
	}
	if len(test) == 0 {
		return nil, nil, fmt.Errorf("%s: test set %s is empty", dir, key)
	}
	if train, err = llmverify.ItemsFromPairCorpus(c, c.Train, utts); err != nil {
		return nil, nil, err
	}
	return test, train, nil
}

// writeTable1 prints the results as the paper's Table 1: one row per
// prompting, ACC and F1 (×100) per view.
func writeTable1(e *env, out llmVerifyOutput, vs []llmverify.View, ps []llmverify.Prompting) {
	fmt.Fprintf(e.Stdout(), "%s as verifier · %d pairs per option (half same-speaker)\n", out.Model, out.N)
	tw := tabwriter.NewWriter(e.Stdout(), 0, 0, 2, ' ', 0)
	head := "Prompting"
	for _, v := range vs {
		head += fmt.Sprintf("\t%s ACC\t%s F1", v, v)
	}
	fmt.Fprintln(tw, head+"\tUnparsed")
	for _, p := range ps {
		line := p.String()
		unparsed := 0
		for _, v := range vs {
			var r *llmverify.Result
			for _, x := range out.Results {
				if x.View == v && x.Prompting == p.String() {
					r = x
				}
			}
			if r == nil {
				line += "\t-\t-"
				continue
			}
			line += fmt.Sprintf("\t%.2f\t%.2f", 100*float64(r.Accuracy), 100*float64(r.F1))
			unparsed += r.Unparsed
		}
		fmt.Fprintf(tw, "%s\t%d\n", line, unparsed)
	}
	tw.Flush()
}

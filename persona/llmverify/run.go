package llmverify

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/encoder"
)

// Chatter sends one chat request and accepts its reply only when check
// does; *llm.Client is one (ChatChecked: an unusable reply is never
// cached, a cached unusable one is a *llm.CachedReplyError unless
// --llm-refresh asks again).
type Chatter interface {
	ChatChecked(ctx context.Context, req llm.Request, check func(*llm.Response) error) (*llm.Response, error)
}

// ErrNoVerdict is the check error of a reply that gives no verdict
// (ParseVerdict finds none).
var ErrNoVerdict = errors.New("the reply gives no TRUE/FALSE verdict")

// CheckVerdict accepts a reply that gives a verdict and was not cut at
// the token limit (a cut chain of thought may not have reached its
// answer, and a verdict read from its middle is not one).
func CheckVerdict(r *llm.Response) error {
	if r.FinishReason == "length" {
		return llm.ErrCutOff
	}
	if _, ok := ParseVerdict(r.Content); !ok {
		return ErrNoVerdict
	}
	return nil
}

// Config configures one run (one cell pair of Table 1).
type Config struct {
	// View is what the verifier sees; default Utterances.
	View View `json:"view"`
	// Prompting is zero-shot, CoT or K-shot.
	Prompting Prompting `json:"-"`
	// Seed picks the demonstrations of K-shot prompts; default 0.
	Seed int64 `json:"seed"`
	// System is the system message; empty means the templates' system.tmpl.
	System string `json:"system,omitempty"`
	// Templates are the prompt templates; nil means DefaultTemplates().
	Templates *Templates `json:"-"`
	// MaxTokens bounds each reply; 0 leaves the server's default.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Workers is how many pairs are asked at once; default 4 (the
	// client's own concurrency limit also applies).
	Workers int `json:"workers,omitempty"`
}

// Prediction is the verifier's answer on one pair.
type Prediction struct {
	ID string `json:"id"`
	// Same is the true label.
	Same bool `json:"same"`
	// Predicted is the verdict; nil when the reply gave none or was cut
	// at the token limit (scored as "different"; such a reply is never
	// cached, so a rerun asks again).
	Predicted *bool `json:"predicted"`
	// Reply is the verifier's reply text.
	Reply string `json:"reply"`
	// Cached says the reply came from the client's cache.
	Cached bool `json:"cached"`
}

// Result is one row of Table 1 for one view.
type Result struct {
	View      View   `json:"view"`
	Prompting string `json:"prompting"`
	// N is the number of pairs asked.
	N int `json:"n"`
	// Accuracy, F1 (of the "same speaker" class, as the paper reports) and
	// MacroF1 (the mean of both classes' F1, as Table 2) score the
	// verdicts; a reply without a verdict counts as "different".
	Accuracy stats.Float `json:"acc"`
	F1       stats.Float `json:"f1"`
	MacroF1  stats.Float `json:"macro_f1"`
	// Unparsed counts replies without a usable verdict (none given, or
	// cut at the token limit); none of them is cached.
	Unparsed int `json:"unparsed"`
	// The confusion counts ("same speaker" is positive).
	TP int `json:"tp"`
	FP int `json:"fp"`
	TN int `json:"tn"`
	FN int `json:"fn"`
	// Templates is each prompt template's sha256 (hex), by file name.
	Templates map[string]string `json:"templates"`
	// Predictions holds every pair's answer, in the items' order.
	Predictions []Prediction `json:"predictions,omitempty"`
}

// Messages builds the chat messages that ask about item: the system
// message, then for K-shot K demonstrations (a question and its answer
// each), then the question. demos are the demonstration pairs.
func Messages(item Item, demos []Item, cfg Config) ([]llm.Message, error) {
	view := cfg.View
	if view == "" {
		view = Utterances
	}
	t := cfg.Templates
	if t == nil {
		var err error
		if t, err = DefaultTemplates(); err != nil {
			return nil, err
		}
	}
	sys := cfg.System
	if sys == "" {
		var err error
		if sys, err = t.Render(TemplateSystem, struct{}{}); err != nil {
			return nil, err
		}
	}
	instr, err := instruction(t, cfg.Prompting)
	if err != nil {
		return nil, err
	}
	msgs := []llm.Message{llm.System(sys)}
	for _, d := range demos {
		q, err := question(t, d, view)
		if err != nil {
			return nil, fmt.Errorf("demonstration: %w", err)
		}
		ans := demoAnswer(d.Same)
		if cfg.Prompting.CoT {
			ans = "Answer: " + ans
		}
		msgs = append(msgs, llm.User(q+"\n\n"+instr), llm.Assistant(ans))
	}
	q, err := question(t, item, view)
	if err != nil {
		return nil, err
	}
	return append(msgs, llm.User(q+"\n\n"+instr)), nil
}

// Demonstrations picks k/2 positive and k/2 negative items of train for
// the item with the given ID (never the item itself), in a seeded random
// order that depends on the seed and the ID, so a rerun asks exactly the
// same requests (and hits the cache).
func Demonstrations(train []Item, k int, seed int64, id string) ([]Item, error) {
	if k == 0 {
		return nil, nil
	}
	if k < 0 || k%2 != 0 {
		return nil, fmt.Errorf("demonstrations: k = %d: want an even number", k)
	}
	var pos, neg []int
	for i, t := range train {
		if t.ID == id {
			continue
		}
		if t.Same {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if len(pos) < k/2 || len(neg) < k/2 {
		return nil, fmt.Errorf("demonstrations: %d-shot needs %d positive and %d negative training pairs, have %d and %d", k, k/2, k/2, len(pos), len(neg))
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	var out []Item
	for _, p := range rng.Perm(len(pos))[:k/2] {
		out = append(out, train[pos[p]])
	}
	for _, p := range rng.Perm(len(neg))[:k/2] {
		out = append(out, train[neg[p]])
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// Run asks client about every test item and scores the verdicts. train
// supplies K-shot demonstrations. A request that still fails after the
// client's retries stops the run with an error naming the pair; answers
// already received stay in the client's cache, so running again resumes
// without paying twice. A reply without a usable verdict (CheckVerdict)
// counts in Result.Unparsed and is not cached, so the next run asks again;
// a cached one from an older run is counted the same way until
// --llm-refresh asks again. progress counts pairs answered.
func Run(ctx context.Context, client Chatter, test, train []Item, cfg Config, progress encoder.Progress) (*Result, error) {
	if cfg.View == "" {
		cfg.View = Utterances
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if len(test) == 0 {
		return nil, fmt.Errorf("llm-verify: no test pairs")
	}
	if cfg.Templates == nil {
		t, err := DefaultTemplates()
		if err != nil {
			return nil, err
		}
		cfg.Templates = t
	}
	// Build every request first, so bad input fails before any is paid.
	reqs := make([]llm.Request, len(test))
	for i, it := range test {
		demos, err := Demonstrations(train, cfg.Prompting.K, cfg.Seed, it.ID)
		if err != nil {
			return nil, err
		}
		msgs, err := Messages(it, demos, cfg)
		if err != nil {
			return nil, err
		}
		reqs[i] = llm.Request{Messages: msgs, MaxTokens: cfg.MaxTokens}
	}
	preds := make([]Prediction, len(test))
	errs := make([]error, len(test))
	var mu sync.Mutex
	done := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(cfg.Workers, len(test)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				resp, err := client.ChatChecked(ctx, reqs[i], CheckVerdict)
				var malformed *llm.MalformedError
				var cached *llm.CachedReplyError
				if err != nil && resp != nil && (errors.As(err, &malformed) || errors.As(err, &cached)) {
					// An unusable reply is an answer without a verdict,
					// not a failed run; it was not cached.
					err = nil
				}
				if err != nil {
					errs[i] = fmt.Errorf("llm-verify: pair %s: %w", test[i].ID, err)
					cancel()
					continue
				}
				p := Prediction{ID: test[i].ID, Same: test[i].Same, Reply: resp.Content, Cached: resp.Cached}
				if CheckVerdict(resp) == nil {
					v, _ := ParseVerdict(resp.Content)
					p.Predicted = &v
				}
				preds[i] = p
				mu.Lock()
				done++
				progress.Report(done, len(test))
				mu.Unlock()
			}
		}()
	}
	for i := range test {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return score(preds, cfg), nil
}

// score computes the metrics of predictions.
func score(preds []Prediction, cfg Config) *Result {
	r := &Result{View: cfg.View, Prompting: cfg.Prompting.String(), N: len(preds), Predictions: preds,
		Templates: cfg.Templates.SHA256}
	var c stats.Confusion
	for _, p := range preds {
		pred := p.Predicted != nil && *p.Predicted
		if p.Predicted == nil {
			r.Unparsed++
		}
		switch {
		case pred && p.Same:
			c.TP++
		case pred && !p.Same:
			c.FP++
		case !pred && p.Same:
			c.FN++
		default:
			c.TN++
		}
	}
	r.TP, r.FP, r.TN, r.FN = c.TP, c.FP, c.TN, c.FN
	r.Accuracy = stats.Float(c.Accuracy())
	r.MacroF1 = stats.Float(c.MacroF1())
	r.F1 = stats.NaN()
	if d := 2*c.TP + c.FP + c.FN; d > 0 {
		r.F1 = stats.Float(2 * float64(c.TP) / float64(d))
	}
	return r
}

// Sample returns n items of items, half with each label (as the paper's
// 200 pairs per option), in a seeded random order; all items when n ≤ 0
// or n ≥ len(items). It is an error when one label has fewer than n/2
// items.
func Sample(items []Item, n int, seed int64) ([]Item, error) {
	if n <= 0 || n >= len(items) {
		return items, nil
	}
	var pos, neg []Item
	for _, it := range items {
		if it.Same {
			pos = append(pos, it)
		} else {
			neg = append(neg, it)
		}
	}
	np := n / 2
	nn := n - np
	if len(pos) < np || len(neg) < nn {
		return nil, fmt.Errorf("sample of %d pairs: needs %d positive and %d negative, have %d and %d", n, np, nn, len(pos), len(neg))
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	var out []Item
	for _, i := range rng.Perm(len(pos))[:np] {
		out = append(out, pos[i])
	}
	for _, i := range rng.Perm(len(neg))[:nn] {
		out = append(out, neg[i])
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

package baseline

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/jdkato/prose/v2"

	"github.com/roleprint/roleprint/sv"
)

// POSTags are the Penn Treebank word tags whose rates (per word) make up
// the "pos" vector; the last dimension is the rate of punctuation tokens
// per word. prose's averaged-perceptron tagger produces them (run
// deterministically by posTagger).
var POSTags = []string{
	"CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD", "NN", "NNP", "NNPS",
	"NNS", "PDT", "POS", "PRP", "PRP$", "RB", "RBR", "RBS", "RP", "SYM", "TO", "UH", "VB",
	"VBD", "VBG", "VBN", "VBP", "VBZ", "WDT", "WP", "WP$", "WRB",
}

var posIndex = func() map[string]int {
	m := map[string]int{}
	for i, t := range POSTags {
		m[t] = i
	}
	return m
}()

var (
	taggerOnce sync.Once
	tagger     *posTagger
	taggerErr  error
)

// taggerModel loads the tagger once per process (decoding prose's weights
// takes ~0.1 s).
func taggerModel() (*posTagger, error) {
	taggerOnce.Do(func() { tagger, taggerErr = loadPOSTagger() })
	return tagger, taggerErr
}

// posCache keeps the raw POS features of texts already tagged in this
// process, so the rounds of an experiment (and the "pos" part of Mixed
// Features) tag each utterance once. It stops growing at posCacheMax
// entries.
var posCache = struct {
	sync.Mutex
	m map[string][]float32
}{m: map[string][]float32{}}

const posCacheMax = 2_000_000

// POSFeatures returns the raw POS-rate vector of one text: for each of
// POSTags its count divided by the number of word tokens, then the number
// of punctuation tokens divided by the number of word tokens (all zero for
// a text without words).
func POSFeatures(text string) ([]float64, error) {
	m, err := taggerModel()
	if err != nil {
		return nil, err
	}
	// prose tokenizes; our posTagger tags (prose's own tagging is not
	// deterministic, see posTagger).
	doc, err := prose.NewDocument(text, prose.WithTagging(false), prose.WithExtraction(false), prose.WithSegmentation(false))
	if err != nil {
		return nil, fmt.Errorf("pos: tokenize %q: %w", text, err)
	}
	toks := doc.Tokens()
	words := make([]string, len(toks))
	for i, tok := range toks {
		words[i] = tok.Text
	}
	f := make([]float64, len(POSTags)+1)
	var nwords, punct float64
	for _, tag := range m.tag(words) {
		if i, ok := posIndex[tag]; ok {
			f[i]++
			nwords++
		} else {
			punct++
		}
	}
	if nwords == 0 {
		return make([]float64, len(f)), nil
	}
	for i := range POSTags {
		f[i] /= nwords
	}
	f[len(POSTags)] = punct / nwords
	return f, nil
}

// posFeaturesCached tags texts in parallel (GOMAXPROCS workers), reusing
// and filling posCache.
func posFeaturesCached(ctx context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	var todo []int
	posCache.Lock()
	for i, t := range texts {
		if v, ok := posCache.m[t]; ok {
			f := make([]float64, len(v))
			for d := range v {
				f[d] = float64(v[d])
			}
			out[i] = f
		} else {
			todo = append(todo, i)
		}
	}
	posCache.Unlock()
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := w; k < len(todo); k += workers {
				if ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				f, err := POSFeatures(texts[todo[k]])
				if err != nil {
					errs[w] = err
					return
				}
				out[todo[k]] = f
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	posCache.Lock()
	for _, i := range todo {
		if len(posCache.m) >= posCacheMax {
			break
		}
		v := make([]float32, len(out[i]))
		for d := range v {
			v[d] = float32(out[i][d])
		}
		posCache.m[texts[i]] = v
	}
	posCache.Unlock()
	return out, nil
}

// posEncoder is the "pos" encoder: POSFeatures standardised with the
// training split's statistics once fitted.
type posEncoder struct {
	featureEncoder
}

// NewPOS returns the "pos" encoder (an sv.Fitter).
func NewPOS() sv.Fitter {
	names := append(append([]string(nil), POSTags...), "punct")
	return &posEncoder{featureEncoder{name: "pos", names: names}}
}

// Fit records the mean and standard deviation of each tag rate over the
// training texts.
func (e *posEncoder) Fit(ctx context.Context, texts []string) error {
	feats, err := posFeaturesCached(ctx, texts)
	if err != nil {
		return err
	}
	return e.fitFeatures(feats)
}

// Encode returns each text's tag rates, standardised once fitted.
func (e *posEncoder) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	feats, err := posFeaturesCached(ctx, texts)
	if err != nil {
		return nil, err
	}
	progress.Report(len(texts), len(texts))
	return e.standardize(feats), nil
}

// Describe names the tagger.
func (e *posEncoder) Describe() string {
	return "Penn Treebank tag rates from github.com/jdkato/prose/v2 (averaged perceptron), standardised on the training texts"
}

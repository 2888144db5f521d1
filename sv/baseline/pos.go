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
// per word. prose's averaged-perceptron tagger produces them.
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
	proseOnce  sync.Once
	proseModel *prose.Model
	proseErr   error
)

// taggerModel loads prose's tagger once per process (decoding its weights
// takes ~0.1 s; prose would otherwise do it for every document).
func taggerModel() (*prose.Model, error) {
	proseOnce.Do(func() {
		doc, err := prose.NewDocument("a", prose.WithExtraction(false), prose.WithSegmentation(false))
		if err != nil {
			proseErr = fmt.Errorf("load prose tagger: %w", err)
			return
		}
		proseModel = doc.Model
	})
	return proseModel, proseErr
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
	doc, err := prose.NewDocument(text, prose.UsingModel(m), prose.WithExtraction(false), prose.WithSegmentation(false))
	if err != nil {
		return nil, fmt.Errorf("pos: tag %q: %w", text, err)
	}
	f := make([]float64, len(POSTags)+1)
	var words, punct float64
	for _, tok := range doc.Tokens() {
		if i, ok := posIndex[tok.Tag]; ok {
			f[i]++
			words++
		} else {
			punct++
		}
	}
	if words == 0 {
		return make([]float64, len(f)), nil
	}
	for i := range POSTags {
		f[i] /= words
	}
	f[len(POSTags)] = punct / words
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

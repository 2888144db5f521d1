package baseline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/sv"
)

// GloVeOptions configures the "glove" and "glove-sif" encoders.
type GloVeOptions struct {
	// Path is the compact word-vector file; empty means the installed
	// GloVe of `roleprint setup glove` (GloVePath of the run's cache).
	Path string `opt:"vectors" json:"vectors"`
	// SIF turns on smooth inverse frequency weighting a/(a+p(w)) and
	// principal-component removal (Arora, Liang & Ma 2017). It is what
	// tells the "glove-sif" row from "glove", not a setting.
	SIF bool `opt:"-" json:"sif"`
	// A is SIF's a. Default 1e-3, the paper's choice.
	A float64 `opt:"sif_a" json:"sif_a"`
	// Components is how many principal components Fit removes (SIF
	// only). Default 1; 0 turns removal off.
	Components int `opt:"pc" json:"pc"`
	// FitSample bounds how many training texts Fit embeds to find the
	// principal components, taken evenly across the training texts.
	// Default 20000.
	FitSample int `opt:"pc_sample" json:"pc_sample"`
	// Center makes Fit record the mean vector of the training texts
	// (after weighting and component removal) and Encode subtract it, so
	// cosines compare how utterances differ from the average one. Default
	// true.
	Center bool `opt:"center" json:"center"`
}

// DefaultGloVeOptions returns the defaults of the "glove" row (sif false)
// or the "glove-sif" row (sif true), the only place they are written.
func DefaultGloVeOptions(sif bool) GloVeOptions {
	return GloVeOptions{SIF: sif, A: 1e-3, Components: 1, FitSample: 20000, Center: true}
}

// gloveEncoder averages word vectors over an utterance's tokens (Tokenize;
// tokens without a vector are skipped; an utterance without any known
// token gets the zero vector).
//
// SIF variant, and what Fit does: p(w) is the word's relative frequency
// among the training texts' tokens (a word unseen there gets p = 0, so
// weight 1, as in Arora et al.'s code); before Fit, p(w) follows Zipf's
// law over GloVe's frequency rank r, p = 1/((r+1)·H) with H the harmonic
// number of the vocabulary size. The weighted sum is divided by the number
// of known tokens. Fit then embeds up to FitSample training texts and
// removes from every vector its projection on their first principal
// component(s) (the top eigenvectors of XᵀX, uncentred, as Arora et al.'s
// truncated SVD), so the common-discourse direction is fitted on the
// training split only. Plain "glove" ignores Fit.
type gloveEncoder struct {
	name  string
	wv    *WordVectors
	opts  GloVeOptions
	freq  map[string]float64 // fitted p(w); nil before Fit
	zipfH float64
	pcs   [][]float64
	mean  []float64 // training mean; nil when not centring
}

// NewGloVe returns a "glove" (opts.SIF false) or "glove-sif" encoder, or an
// *assets.MissingError naming `roleprint setup glove` when the vectors are
// not installed.
func NewGloVe(opts GloVeOptions) (sv.Encoder, error) {
	if opts.Path == "" {
		p, err := GloVePath("")
		if err != nil {
			return nil, err
		}
		opts.Path = p
	}
	if opts.A <= 0 || opts.FitSample < 1 || opts.Components < 0 {
		return nil, fmt.Errorf("glove: sif_a %g must be positive, pc_sample %d at least 1 and pc %d not negative", opts.A, opts.FitSample, opts.Components)
	}
	wv, err := loadWordVectorsCached(opts.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &assets.MissingError{What: "GloVe word vectors", Path: opts.Path, Step: "glove"}
	}
	if err != nil {
		return nil, err
	}
	e := &gloveEncoder{name: "glove", wv: wv, opts: opts}
	if opts.SIF {
		e.name = "glove-sif"
		n := float64(len(wv.Words))
		e.zipfH = math.Log(n) + 0.5772156649 + 1/(2*n)
	}
	return e, nil
}

// Name is "glove" or "glove-sif".
func (e *gloveEncoder) Name() string { return e.name }

// Dim is the word vectors' dimension (100 for GloVe 6B 100-d).
func (e *gloveEncoder) Dim() int { return e.wv.Dim }

// weight returns a token's weight: 1 for plain GloVe, a/(a+p(w)) for SIF.
func (e *gloveEncoder) weight(tok string, rank int32) float64 {
	if !e.opts.SIF {
		return 1
	}
	var p float64
	if e.freq != nil {
		p = e.freq[tok]
	} else {
		p = 1 / ((float64(rank) + 1) * e.zipfH)
	}
	return e.opts.A / (e.opts.A + p)
}

// embed returns the weighted mean vector of text's known tokens, before
// component removal.
func (e *gloveEncoder) embed(text string) []float64 {
	v := make([]float64, e.wv.Dim)
	n := 0
	for _, tok := range Tokenize(text) {
		i, ok := e.wv.Index[tok]
		if !ok {
			continue
		}
		w := e.weight(tok, i)
		row := e.wv.Vectors[int(i)*e.wv.Dim : (int(i)+1)*e.wv.Dim]
		for d, x := range row {
			v[d] += w * float64(x)
		}
		n++
	}
	if n > 0 {
		for d := range v {
			v[d] /= float64(n)
		}
	}
	return v
}

func (e *gloveEncoder) removePCs(v []float64) {
	for _, u := range e.pcs {
		var dot float64
		for d := range v {
			dot += u[d] * v[d]
		}
		for d := range v {
			v[d] -= dot * u[d]
		}
	}
}

// Fit estimates p(w) and the principal components (SIF), then the mean
// vector (when Center), on the training texts.
func (e *gloveEncoder) Fit(ctx context.Context, texts []string) error {
	if len(texts) == 0 {
		return fmt.Errorf("%s: fit: no training texts", e.name)
	}
	e.mean = nil
	if e.opts.SIF {
		if err := e.fitSIF(ctx, texts); err != nil {
			return err
		}
	}
	if !e.opts.Center {
		return nil
	}
	step := max(1, len(texts)/e.opts.FitSample)
	mean := make([]float64, e.wv.Dim)
	var n float64
	for i := 0; i < len(texts); i += step {
		v := e.embed(texts[i])
		e.removePCs(v)
		for d, x := range v {
			mean[d] += x
		}
		n++
	}
	for d := range mean {
		mean[d] /= n
	}
	e.mean = mean
	return nil
}

// fitSIF estimates p(w) and the principal components.
func (e *gloveEncoder) fitSIF(ctx context.Context, texts []string) error {
	counts := map[string]float64{}
	var total float64
	for i, t := range texts {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for _, tok := range Tokenize(t) {
			counts[tok]++
			total++
		}
	}
	if total == 0 {
		return fmt.Errorf("%s: fit: the training texts have no tokens", e.name)
	}
	for k := range counts {
		counts[k] /= total
	}
	e.freq = counts
	e.pcs = nil
	k := e.opts.Components
	if k <= 0 {
		return nil
	}
	step := max(1, len(texts)/e.opts.FitSample)
	dim := e.wv.Dim
	gram := mat.NewSymDense(dim, nil)
	var rows int
	for i := 0; i < len(texts); i += step {
		if rows%2048 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		v := e.embed(texts[i])
		gram.SymRankOne(gram, 1, mat.NewVecDense(dim, v))
		rows++
	}
	var eig mat.EigenSym
	if !eig.Factorize(gram, true) {
		return fmt.Errorf("%s: fit: eigendecomposition failed", e.name)
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// Eigenvalues come in ascending order: the last columns are the top
	// components.
	for c := 0; c < min(k, dim); c++ {
		col := dim - 1 - c
		u := make([]float64, dim)
		for d := range u {
			u[d] = vecs.At(d, col)
		}
		e.pcs = append(e.pcs, u)
	}
	return nil
}

// Encode returns each text's (weighted) mean word vector, with the fitted
// principal components removed and the training mean subtracted.
func (e *gloveEncoder) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	return encodeEach(ctx, texts, progress, func(t string) []float64 {
		v := e.embed(t)
		e.removePCs(v)
		for d, m := range e.mean {
			v[d] -= m
		}
		return v
	})
}

// Describe names the vectors and the weighting.
func (e *gloveEncoder) Describe() string {
	w := "plain mean"
	if e.opts.SIF {
		w = fmt.Sprintf("SIF a=%g, %d principal component(s) removed", e.opts.A, e.opts.Components)
	}
	c := ", centred on the training mean"
	if !e.opts.Center {
		c = ""
	}
	return fmt.Sprintf("word vectors %s (%d words × %d; GloVe 6B from npm %s), %s%s", e.opts.Path, len(e.wv.Words), e.wv.Dim, GloVeNpmPackage, w, c)
}

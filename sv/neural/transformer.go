package neural

import (
	"fmt"
	"math"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
)

// TransformerConfig holds the hyperparameters of the from-scratch
// transformer encoder. The zero value of a field means its default.
type TransformerConfig struct {
	// Layers is the number of encoder blocks. Default 2 (CPU); the paper-scale
	// GPU configuration uses 6.
	Layers int `json:"layers"`
	// Dim is the model width and the utterance-vector length. Default 128
	// (paper scale: 384).
	Dim int `json:"dim"`
	// Heads is the number of attention heads; Dim must be a multiple.
	// Default 4 (paper scale: 6).
	Heads int `json:"heads"`
	// FFNDim is the inner width of the feed-forward blocks. Default 512;
	// 0 means 4·Dim.
	FFNDim int `json:"ffn_dim"`
	// MaxLen is the longest utterance in token ids, [CLS] and [SEP]
	// included; longer ones are truncated. Default 32.
	MaxLen int `json:"max_len"`
	// Pooling turns token states into the utterance vector: "mean" over real
	// tokens, "cls" (the first token's state) or "attention" (a softmax
	// over real tokens with a learned query, which can learn IDF-like
	// token weights). Default "mean".
	Pooling string `json:"pooling"`
	// EmbedDim is the token-embedding width; when it differs from Dim a
	// trainable projection maps embeddings to Dim. Default 0: Dim, or
	// the width of the GloVe vectors when GloVe is set.
	EmbedDim int `json:"embed_dim"`
	// Seed seeds the weight initialisation. The encoder sets it from
	// sv.EncoderOptions.Seed (not a setting).
	Seed int64 `json:"seed" opt:"-"`
	// Vocab is the tokenizer file (vocab.txt or tokenizer.json); empty means
	// the embedded bert-base-uncased vocabulary.
	Vocab string `json:"vocab,omitempty"`
	// GloVe, when not nil, initialises the token embeddings of whole-word
	// WordPiece tokens from these word vectors (see WordVectors); the other
	// rows keep their random initialisation.
	GloVe WordVectors `json:"-"`
	// GloVeName names the GloVe source in manifests (the "glove" setting
	// is TransformerOptions.GloVe).
	GloVeName string `json:"glove,omitempty" opt:"-"`
	// NGramBuckets, when positive, adds character n-gram features: each
	// utterance's distinct n-grams are hashed into this many rows of a
	// trainable table whose layer-normalised mean is added to the pooled
	// output (see ngrams.go). Default 0 (off); 131072 is a good size.
	NGramBuckets int `json:"ngram_buckets,omitempty"`
	// NGramMin is the shortest n-gram in runes (used only with
	// NGramBuckets). Default 2, the TF-IDF baseline's.
	NGramMin int `json:"ngram_min,omitempty"`
	// NGramMax is the longest n-gram in runes (used only with
	// NGramBuckets). Default 4, the TF-IDF baseline's.
	NGramMax int `json:"ngram_max,omitempty"`
	// NGramSlots caps the distinct n-grams per utterance (used only with
	// NGramBuckets). Default 256.
	NGramSlots int `json:"ngram_slots,omitempty"`
}

// WordVectors looks up pretrained word vectors (GloVe): Vector returns the
// vector of a lower-cased word, or nil; Dim is their length.
type WordVectors interface {
	Dim() int
	Vector(word string) []float32
}

// DefaultTransformerConfig returns the CPU defaults, the one place they are
// written: 2 layers, 128 wide, 4 heads, FFN 512, 32 tokens, mean pooling,
// no n-gram features (2–4-grams in 256 slots when turned on).
func DefaultTransformerConfig() TransformerConfig {
	return TransformerConfig{Layers: 2, Dim: 128, Heads: 4, FFNDim: 512, MaxLen: 32, Pooling: "mean",
		NGramMin: 2, NGramMax: 4, NGramSlots: 256}
}

// PaperScaleTransformerConfig is the GPU benchmark configuration: 6 layers,
// 384 wide, 6 heads, FFN 1536, 32 tokens, mean pooling.
func PaperScaleTransformerConfig() TransformerConfig {
	c := DefaultTransformerConfig()
	c.Layers, c.Dim, c.Heads, c.FFNDim = 6, 384, 6, 1536
	return c
}

// resolve fills the fields whose 0 is derived (FFNDim: 4·Dim; EmbedDim:
// Dim or the GloVe width), clears the n-gram fields when NGramBuckets is
// 0 (so configs without n-grams serialise as before) and validates.
func (c TransformerConfig) resolve() (TransformerConfig, error) {
	if c.FFNDim == 0 {
		c.FFNDim = 4 * c.Dim
	}
	if c.EmbedDim == 0 {
		c.EmbedDim = c.Dim
		if c.GloVe != nil {
			c.EmbedDim = c.GloVe.Dim()
		}
	}
	if c.NGramBuckets > 0 {
		if c.NGramMin < 1 || c.NGramMax < c.NGramMin || c.NGramSlots < 1 {
			return c, fmt.Errorf("transformer: ngram_min %d, ngram_max %d, ngram_slots %d: want 1 ≤ min ≤ max and slots ≥ 1",
				c.NGramMin, c.NGramMax, c.NGramSlots)
		}
	} else {
		c.NGramBuckets, c.NGramMin, c.NGramMax, c.NGramSlots = 0, 0, 0, 0
	}
	switch {
	case c.Layers < 1 || c.Dim < 1 || c.Heads < 1 || c.FFNDim < 1 || c.EmbedDim < 1:
		return c, fmt.Errorf("transformer: layers, dim, heads, ffn_dim and embed_dim must be positive (got %d, %d, %d, %d, %d)",
			c.Layers, c.Dim, c.Heads, c.FFNDim, c.EmbedDim)
	case c.Dim%c.Heads != 0:
		return c, fmt.Errorf("transformer: dim %d is not a multiple of heads %d", c.Dim, c.Heads)
	case c.MaxLen < 2:
		return c, fmt.Errorf("transformer: max_len %d < 2", c.MaxLen)
	case c.Pooling != "mean" && c.Pooling != "cls" && c.Pooling != "attention":
		return c, fmt.Errorf("transformer: pooling %q: use mean, cls or attention", c.Pooling)
	case c.GloVe != nil && c.GloVe.Dim() != c.EmbedDim:
		return c, fmt.Errorf("transformer: embed_dim %d differs from the GloVe width %d", c.EmbedDim, c.GloVe.Dim())
	}
	return c, nil
}

// Transformer is a BERT-like encoder trained from scratch: token and
// learned position embeddings, pre-LayerNorm blocks of multi-head
// self-attention and GELU feed-forward layers, a final LayerNorm and mean
// (or CLS) pooling. It implements UtteranceModel.
//
// Initialisation avoids the collapse seen with GoMLX's default initialisers
// (mean-pooled vectors all at cosine ≈ 0.997): token embeddings are
// N(0, 1), position embeddings start at zero, projections are
// N(0, 1/fan_in) and the residual outputs are scaled down by √(2·layers).
type Transformer struct {
	cfg  TransformerConfig
	tok  Tokenizer       // the word pieces
	ntok *ngramTokenizer // word pieces + n-grams, when NGramBuckets > 0
	name string
}

// NewTransformer validates cfg (start from DefaultTransformerConfig) and loads
// its tokenizer. name is the encoder's row name ("transformer").
func NewTransformer(name string, cfg TransformerConfig) (*Transformer, error) {
	c, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	var tok Tokenizer
	if c.Vocab == "" {
		tok, err = DefaultTokenizer()
	} else {
		tok, err = LoadTokenizer(c.Vocab)
	}
	if err != nil {
		return nil, err
	}
	m := &Transformer{cfg: c, tok: tok, name: name}
	if c.NGramBuckets > 0 {
		m.ntok = newNGramTokenizer(tok, c)
	}
	return m, nil
}

// Name implements UtteranceModel.
func (m *Transformer) Name() string { return m.name }

// Dim implements UtteranceModel.
func (m *Transformer) Dim() int { return m.cfg.Dim }

// Tokenizer implements UtteranceModel.
func (m *Transformer) Tokenizer() Tokenizer {
	if m.ntok != nil {
		return m.ntok
	}
	return m.tok
}

// MaxLen implements UtteranceModel.
func (m *Transformer) MaxLen() int { return m.cfg.MaxLen + m.cfg.NGramSlots }

// Config implements UtteranceModel.
func (m *Transformer) Config() any { return m.cfg }

// Init implements UtteranceModel: it creates every variable with values
// drawn on the host from cfg.Seed (identical on every backend).
func (m *Transformer) Init(scope *model.Scope) error {
	c := m.cfg
	s := c.Seed
	v := m.tok.VocabSize()
	emb := initVariable(scope, s, "embeddings/tokens", paramInit{kind: "normal", std: 1}, v, c.EmbedDim)
	if c.GloVe != nil {
		if err := m.initFromGloVe(emb); err != nil {
			return err
		}
	}
	if c.EmbedDim != c.Dim {
		initVariable(scope, s, "embeddings/proj_w", paramInit{kind: "normal", std: 1 / math.Sqrt(float64(c.EmbedDim))}, c.EmbedDim, c.Dim)
		initVariable(scope, s, "embeddings/proj_b", paramInit{kind: "zeros"}, c.Dim)
	}
	initVariable(scope, s, "embeddings/positions", paramInit{kind: "zeros"}, c.MaxLen, c.Dim)
	initVariable(scope, s, "embeddings/ln_gain", paramInit{kind: "ones"}, c.Dim)
	initVariable(scope, s, "embeddings/ln_bias", paramInit{kind: "zeros"}, c.Dim)
	hd := c.Dim / c.Heads
	inStd := 1 / math.Sqrt(float64(c.Dim))
	outStd := inStd / math.Sqrt(2*float64(c.Layers))
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("layer_%d/", l)
		initVariable(scope, s, p+"attn_ln_gain", paramInit{kind: "ones"}, c.Dim)
		initVariable(scope, s, p+"attn_ln_bias", paramInit{kind: "zeros"}, c.Dim)
		for _, w := range []string{"q", "k", "v"} {
			initVariable(scope, s, p+w+"_w", paramInit{kind: "normal", std: inStd}, c.Dim, c.Heads, hd)
		}
		// No key bias: it adds the same q·b to every logit of a query, which
		// softmax ignores, so its gradient is zero up to rounding noise that
		// Adam would amplify into steps of size lr.
		for _, w := range []string{"q", "v"} {
			initVariable(scope, s, p+w+"_b", paramInit{kind: "zeros"}, c.Heads, hd)
		}
		initVariable(scope, s, p+"o_w", paramInit{kind: "normal", std: outStd}, c.Heads, hd, c.Dim)
		initVariable(scope, s, p+"o_b", paramInit{kind: "zeros"}, c.Dim)
		initVariable(scope, s, p+"ffn_ln_gain", paramInit{kind: "ones"}, c.Dim)
		initVariable(scope, s, p+"ffn_ln_bias", paramInit{kind: "zeros"}, c.Dim)
		initVariable(scope, s, p+"ffn_w1", paramInit{kind: "normal", std: inStd}, c.Dim, c.FFNDim)
		initVariable(scope, s, p+"ffn_b1", paramInit{kind: "zeros"}, c.FFNDim)
		initVariable(scope, s, p+"ffn_w2", paramInit{kind: "normal", std: 1 / math.Sqrt(float64(c.FFNDim)) / math.Sqrt(2*float64(c.Layers))}, c.FFNDim, c.Dim)
		initVariable(scope, s, p+"ffn_b2", paramInit{kind: "zeros"}, c.Dim)
	}
	initVariable(scope, s, "final_ln_gain", paramInit{kind: "ones"}, c.Dim)
	initVariable(scope, s, "final_ln_bias", paramInit{kind: "zeros"}, c.Dim)
	if c.Pooling == "attention" {
		// Zero query: training starts from mean pooling.
		initVariable(scope, s, "pool_query", paramInit{kind: "zeros"}, c.Dim)
	}
	if m.ntok != nil {
		m.initNGrams(scope)
	}
	return nil
}

// Graph implements UtteranceModel.
func (m *Transformer) Graph(scope *model.Scope, ids, mask *Node) *Node {
	c := m.cfg
	g := ids.Graph()
	var ngIDs, ngMask *Node
	if m.ntok != nil {
		if t := ids.Shape().Dimensions[1]; t > m.MaxLen() {
			panic(fmt.Sprintf("neural: transformer got %d ids per utterance, more than max_len %d + ngram_slots %d", t, c.MaxLen, c.NGramSlots))
		}
		ids, mask, ngIDs, ngMask = m.splitNGrams(ids, mask)
	}
	t := ids.Shape().Dimensions[1]
	if t > c.MaxLen {
		panic(fmt.Sprintf("neural: transformer got %d tokens per utterance, more than max_len %d", t, c.MaxLen))
	}
	exact := exactLookups(scope, g)
	var x *Node
	if exact != nil {
		checkLookups(exact, len(m.lookupSites()))
		x = exact[0].rows(param(scope, g, "embeddings/tokens")) // [N, T, E]
	} else {
		x = embed(param(scope, g, "embeddings/tokens"), ids) // [N, T, E]
	}
	if c.EmbedDim != c.Dim {
		x = addBias(Einsum("nte,ed->ntd", x, param(scope, g, "embeddings/proj_w")), param(scope, g, "embeddings/proj_b"))
	}
	x = Add(x, InsertAxes(positionRows(param(scope, g, "embeddings/positions"), t), 0))
	x = layerNorm(x, param(scope, g, "embeddings/ln_gain"), param(scope, g, "embeddings/ln_bias"))

	// Additive attention bias [N, 1, 1, T]: 0 on real keys, maskBias on padding.
	keyBias := MulScalar(OneMinus(ConvertDType(mask, x.DType())), maskBias)
	keyBias = InsertAxes(keyBias, 1, 1)
	scale := 1 / math.Sqrt(float64(c.Dim/c.Heads))
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("layer_%d/", l)
		h := layerNorm(x, param(scope, g, p+"attn_ln_gain"), param(scope, g, p+"attn_ln_bias"))
		q := addBias(Einsum("ntd,dhe->nthe", h, param(scope, g, p+"q_w")), param(scope, g, p+"q_b"))
		k := Einsum("ntd,dhe->nthe", h, param(scope, g, p+"k_w"))
		v := addBias(Einsum("ntd,dhe->nthe", h, param(scope, g, p+"v_w")), param(scope, g, p+"v_b"))
		scores := MulScalar(Einsum("nqhe,nkhe->nhqk", q, k), scale)
		att := Softmax(Add(scores, keyBias), -1)
		o := Einsum("nhqk,nkhe->nqhe", att, v)
		o = addBias(Einsum("nqhe,hed->nqd", o, param(scope, g, p+"o_w")), param(scope, g, p+"o_b"))
		x = Add(x, o)
		h = layerNorm(x, param(scope, g, p+"ffn_ln_gain"), param(scope, g, p+"ffn_ln_bias"))
		f := gelu(addBias(Einsum("ntd,df->ntf", h, param(scope, g, p+"ffn_w1")), param(scope, g, p+"ffn_b1")))
		f = addBias(Einsum("ntf,fd->ntd", f, param(scope, g, p+"ffn_w2")), param(scope, g, p+"ffn_b2"))
		x = Add(x, f)
	}
	x = layerNorm(x, param(scope, g, "final_ln_gain"), param(scope, g, "final_ln_bias"))
	var out *Node
	switch c.Pooling {
	case "cls":
		out = selectPosition(x, 0)
	case "attention":
		logits := MulScalar(Einsum("ntd,d->nt", x, param(scope, g, "pool_query")), 1/math.Sqrt(float64(c.Dim)))
		w := Softmax(Add(logits, MulScalar(OneMinus(ConvertDType(mask, x.DType())), maskBias)), -1)
		out = Einsum("ntd,nt->nd", x, w)
	default:
		out = maskedMean(x, mask)
	}
	if ngIDs != nil {
		var ng *exactLookup
		if exact != nil {
			ng = &exact[1]
		}
		out = Add(out, m.ngramVector(scope, ngIDs, ngMask, ng))
	}
	return out
}

// lookupSites implements exactLookupModel: the word pieces (positions
// [0, MaxLen), ids below the vocabulary size; n-gram holes read a zero
// row) and, with n-grams, their bag (the positions after MaxLen).
func (m *Transformer) lookupSites() []lookupSite {
	sites := []lookupSite{{lo: 0, hi: int32(m.tok.VocabSize()), from: 0, to: m.cfg.MaxLen}}
	if m.ntok != nil {
		sites = append(sites, lookupSite{lo: m.ntok.ngramStart, hi: m.ntok.ngramStart + int32(m.cfg.NGramBuckets),
			from: m.cfg.MaxLen, to: m.cfg.MaxLen + m.cfg.NGramSlots, bag: true})
	}
	return sites
}

// initFromGloVe overwrites the rows of whole-word tokens found in the
// GloVe vectors, scaled to unit standard deviation like the random rows.
func (m *Transformer) initFromGloVe(emb *model.Variable) error {
	wp, ok := m.tok.(interface{ Vocab() []string })
	if !ok {
		return fmt.Errorf("transformer: GloVe initialisation needs a WordPiece vocabulary")
	}
	t, err := emb.Value()
	if err != nil {
		return err
	}
	data, err := flatFloat32(t)
	if err != nil {
		return err
	}
	words := wp.Vocab()
	dim := m.cfg.EmbedDim
	// Scale GloVe rows to unit per-coordinate variance.
	var sum2 float64
	var n int
	rows := map[int][]float32{}
	for id, w := range words {
		if id >= m.tok.VocabSize() {
			break
		}
		vec := m.cfg.GloVe.Vector(w)
		if vec == nil || len(vec) != dim {
			continue
		}
		rows[id] = vec
		for _, x := range vec {
			sum2 += float64(x) * float64(x)
		}
		n += dim
	}
	if n == 0 {
		return fmt.Errorf("transformer: no vocabulary word found in the GloVe vectors")
	}
	scale := float32(1 / math.Sqrt(sum2/float64(n)))
	for id, vec := range rows {
		for j, x := range vec {
			data[id*dim+j] = x * scale
		}
	}
	return emb.SetValue(tensorFromFloat32(data, t.Shape().Dimensions...))
}

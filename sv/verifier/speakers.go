package verifier

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// A bundle's training speakers let `verify` say whom a set of lines
// resembles among the speakers the verifier was trained on. Each training
// speaker is kept as one profile: its name, corpus and number of training
// utterances, and the unit vector of a set of its training lines in the
// space the bundle compares sets in: per part the set embedding the part
// scores (before any s-norm: an s-norm part's score is a cosine normalised
// against a cohort, which is no similarity between two given sets),
// L2-normalised and scaled by √(wᵢ/Σw), concatenated, so that the dot
// product of two profiles is the weighted mean of the parts' cosines (for
// a bundle of cosine parts, its score itself). A space wider than
// SpeakerDim (the n-gram parts: tens of thousands of features) is stored
// through a fixed random projection, a count sketch (Charikar, Chen and
// Farach-Colton 2002; feature hashing, Weinberger et al. 2009): feature i
// is added with sign sᵢ to bucket h(i), both from a seeded hash of i, so
// no matrix is stored and the dot product of two sketches is an unbiased
// estimate of that of the vectors (its deviation about 1/√SpeakerDim for
// unit vectors). Sketches are not normalised again: a component every
// profile shares (an n-gram part's corpus channel makes every pair of one
// corpus about 0.3 similar) then adds one and the same error to every
// speaker's similarity with a set, and changes no ranking.
// Profiles are float32, little-endian, one row per speaker in
// SpeakersVectorsFile (readable as numpy.fromfile(f, "<f4").reshape(n,
// dim)); SpeakersFile describes them.

// Speakers file names, format and sizes.
const (
	// SpeakersFile describes the profiles (Speakers); SpeakersVectorsFile
	// holds their vectors.
	SpeakersFile        = "speakers.json"
	SpeakersVectorsFile = "speakers.f32"
	// SpeakersFormat and SpeakersVersion identify SpeakersFile; a bundle
	// with another version does not load (the vectors' meaning may differ).
	SpeakersFormat  = "roleprint-verifier-speakers"
	SpeakersVersion = 1
	// MaxSpeakers is the default cap on the profiles a bundle keeps (the
	// speakers with the most training utterances).
	MaxSpeakers = 2000
	// SpeakerDim is the widest space stored as it is; wider ones are
	// projected to it.
	SpeakerDim = 2048
	// SpeakerPoolUtterances caps the training utterances pooled into one
	// profile (taken evenly in training order).
	SpeakerPoolUtterances = 200
	// speakerBatch is the number of profiles embedded at once.
	speakerBatch = 64
	// speakerSketchSeed seeds the projection's hash.
	speakerSketchSeed = 0x5eed5eed
)

// Projections of a profile space.
const (
	// ProjectionNone stores the vectors as they are.
	ProjectionNone = "none"
	// ProjectionCountSketch stores a count sketch (see above).
	ProjectionCountSketch = "count-sketch"
)

// speakerDim is SpeakerDim (tests compare other widths).
var speakerDim = SpeakerDim

// ErrNoSpeakers is returned by Nearest for a bundle that records no
// training speakers (one saved before bundles kept them).
var ErrNoSpeakers = errors.New("the bundle records no training speakers (saved before bundles kept them; save it again to name nearest training speakers)")

// SpeakerSet is one training speaker's utterances, to make its profile.
type SpeakerSet struct {
	Speaker, Corpus string
	Texts           []string
}

// TrainSpeaker is one profile of a bundle.
type TrainSpeaker struct {
	Speaker string `json:"speaker"`
	Corpus  string `json:"corpus"`
	// Utterances counts its distinct training utterances (of which at
	// most SpeakerPoolUtterances form the profile).
	Utterances int `json:"utterances"`
}

// Speakers are a bundle's training speakers, the content of SpeakersFile
// and its vectors.
type Speakers struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	// Space says what the similarity of two profiles is.
	Space string `json:"space"`
	// InputDim is the width of the bundle's concatenated part embeddings;
	// Dim the stored width; Projection how one becomes the other and Seed
	// the projection's hash seed.
	InputDim   int    `json:"input_dim"`
	Dim        int    `json:"dim"`
	Projection string `json:"projection"`
	Seed       uint64 `json:"seed,omitempty"`
	// PartDims are the parts' widths in the bundle's order.
	PartDims []int `json:"part_dims"`
	// PoolUtterances is the cap on utterances per profile.
	PoolUtterances int `json:"pool_utterances"`
	// TrainingSpeakers counts the training speakers before the cap
	// (MaxSpeakers); Speakers are the kept ones, most utterances first,
	// in the order of the vectors' rows.
	TrainingSpeakers int            `json:"training_speakers"`
	MaxSpeakers      int            `json:"max_speakers"`
	Vectors          string         `json:"vectors"`
	Speakers         []TrainSpeaker `json:"speakers"`

	vecs [][]float32
}

// Neighbor is a training speaker near a set of utterances.
type Neighbor struct {
	Speaker string `json:"speaker"`
	Corpus  string `json:"corpus"`
	// Similarity is the dot product of the two profiles (Speakers.Space):
	// their cosine, or its estimate through the projection.
	Similarity float64 `json:"similarity"`
}

// String is "Speaker (corpus) 0.123".
func (n Neighbor) String() string {
	return fmt.Sprintf("%s (%s) %.3f", n.Speaker, n.Corpus, n.Similarity)
}

// spaceText describes the similarity of a projection of width dim.
func spaceText(projection string, dim int) string {
	s := "weighted mean of the parts' cosines of their set embeddings (the bundle's score for cosine parts; before s-norm for an s-norm part), in the bundle's own, unadapted space"
	if projection == ProjectionCountSketch {
		s += fmt.Sprintf(", estimated through a %d-dimensional count-sketch projection", dim)
	}
	return s
}

// TrainSpeakerSets returns the training speakers of c: each speaker
// (per corpus, pairs.CorpusOf its sets' source) of the sets of c's
// training pairs with its distinct utterances, in set-ID order; speakers
// sorted by corpus and name.
func TrainSpeakerSets(c *pairs.PairCorpus) []SpeakerSet {
	ids := map[string]bool{}
	for _, p := range c.Train {
		ids[p.A], ids[p.B] = true, true
	}
	type key struct{ corpus, speaker string }
	by := map[key]*SpeakerSet{}
	seen := map[key]map[string]bool{}
	for _, s := range sv.SetsByID(c, ids) {
		if s == nil || s.Speaker == "" {
			continue
		}
		k := key{pairs.CorpusOf(s.Source), s.Speaker}
		if by[k] == nil {
			by[k], seen[k] = &SpeakerSet{Speaker: k.speaker, Corpus: k.corpus}, map[string]bool{}
		}
		for _, t := range s.Texts {
			if !seen[k][t] {
				seen[k][t] = true
				by[k].Texts = append(by[k].Texts, t)
			}
		}
	}
	out := make([]SpeakerSet, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b SpeakerSet) int {
		return cmp.Or(strings.Compare(a.Corpus, b.Corpus), strings.Compare(a.Speaker, b.Speaker))
	})
	return out
}

// SpeakerProfiles embeds the training speakers sets with the bundle's
// parts (as Save receives them: trained and fitted) into the profiles a
// bundle keeps: at most maxSpeakers (0: MaxSpeakers) of them, those with
// the most utterances, each from at most SpeakerPoolUtterances of its
// utterances.
func SpeakerProfiles(ctx context.Context, parts []SavePart, sets []SpeakerSet, maxSpeakers int) (*Speakers, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("speaker profiles: no parts")
	}
	if maxSpeakers <= 0 {
		maxSpeakers = MaxSpeakers
	}
	sets = slices.Clone(sets)
	sets = slices.DeleteFunc(sets, func(s SpeakerSet) bool { return len(s.Texts) == 0 })
	if len(sets) == 0 {
		return nil, fmt.Errorf("speaker profiles: no speaker has utterances")
	}
	slices.SortStableFunc(sets, func(a, b SpeakerSet) int {
		return cmp.Or(cmp.Compare(len(b.Texts), len(a.Texts)), strings.Compare(a.Corpus, b.Corpus), strings.Compare(a.Speaker, b.Speaker))
	})
	kept := sets[:min(len(sets), maxSpeakers)]
	encs, weights := make([]sv.Encoder, len(parts)), make([]float64, len(parts))
	for i, p := range parts {
		encs[i], weights[i] = p.Encoder, p.Weight
		if weights[i] == 0 {
			weights[i] = 1
		}
	}
	sp := &Speakers{Format: SpeakersFormat, FormatVersion: SpeakersVersion, PoolUtterances: SpeakerPoolUtterances,
		TrainingSpeakers: len(sets), MaxSpeakers: maxSpeakers, Vectors: SpeakersVectorsFile}
	for _, e := range encs {
		sp.PartDims = append(sp.PartDims, e.Dim())
		sp.InputDim += e.Dim()
	}
	sp.Dim, sp.Projection = sp.InputDim, ProjectionNone
	if sp.InputDim > speakerDim {
		sp.Dim, sp.Projection, sp.Seed = speakerDim, ProjectionCountSketch, speakerSketchSeed
	}
	sp.Space = spaceText(sp.Projection, sp.Dim)
	for lo := 0; lo < len(kept); lo += speakerBatch {
		batch := kept[lo:min(lo+speakerBatch, len(kept))]
		texts := make([][]string, len(batch))
		for i, s := range batch {
			texts[i] = evenTexts(s.Texts, SpeakerPoolUtterances)
		}
		vecs, err := sp.embed(ctx, encs, weights, texts)
		if err != nil {
			return nil, fmt.Errorf("speaker profiles: %w", err)
		}
		for i, s := range batch {
			sp.Speakers = append(sp.Speakers, TrainSpeaker{Speaker: s.Speaker, Corpus: s.Corpus, Utterances: len(s.Texts)})
			sp.vecs = append(sp.vecs, vecs[i])
		}
	}
	return sp, nil
}

// evenTexts keeps at most n of texts, taken evenly.
func evenTexts(texts []string, n int) []string {
	if len(texts) <= n {
		return texts
	}
	out := make([]string, n)
	for i := range out {
		out[i] = texts[i*len(texts)/n]
	}
	return out
}

// embed returns the stored-space vectors of sets, embedded by encs (the
// bundle's parts, weights their weights): unit vectors, or their sketches.
func (sp *Speakers) embed(ctx context.Context, encs []sv.Encoder, weights []float64, sets [][]string) ([][]float32, error) {
	if len(encs) != len(sp.PartDims) {
		return nil, fmt.Errorf("%d parts, profiles of %d", len(encs), len(sp.PartDims))
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	us := make([]*pairs.UtteranceSet, len(sets))
	for i, t := range sets {
		us[i] = &pairs.UtteranceSet{ID: fmt.Sprint(i), Texts: t}
	}
	full := make([][]float32, len(sets))
	for k, e := range encs {
		if d := e.Dim(); d != sp.PartDims[k] {
			return nil, fmt.Errorf("part %s is %d wide, its profiles %d (an adapted encoder: nearest training speakers are in the bundle's own, unadapted space)", e.Name(), d, sp.PartDims[k])
		}
		emb, err := sv.EmbedSets(ctx, e, us, nil)
		if err != nil {
			return nil, err
		}
		scale := float32(math.Sqrt(weights[k] / total))
		for i, s := range us {
			v := emb[s.ID]
			if len(v) != sp.PartDims[k] {
				return nil, fmt.Errorf("part %s gave a %d-wide vector, want %d", e.Name(), len(v), sp.PartDims[k])
			}
			u := stats.Normalize(append([]float32(nil), v...))
			for j := range u {
				u[j] *= scale
			}
			full[i] = append(full[i], u...)
		}
	}
	for i, v := range full {
		full[i] = sp.project(v)
	}
	return full, nil
}

// project maps a vector of InputDim entries to Dim.
func (sp *Speakers) project(v []float32) []float32 {
	if sp.Projection != ProjectionCountSketch {
		return v
	}
	out := make([]float32, sp.Dim)
	for i, x := range v {
		if x == 0 {
			continue
		}
		h := mix64(sp.Seed ^ (uint64(i) * 0x9e3779b97f4a7c15))
		b, _ := bits.Mul64(h, uint64(sp.Dim))
		if h&1 == 1 {
			x = -x
		}
		out[b] += x
	}
	return out
}

// mix64 is SplitMix64's finaliser (Steele, Lea and Flood 2014): a
// bijective, well-mixed 64-bit hash of the feature index.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Len is the number of profiles.
func (sp *Speakers) Len() int { return len(sp.Speakers) }

// Vector returns profile i's stored vector (shared: do not modify).
func (sp *Speakers) Vector(i int) []float32 { return sp.vecs[i] }

// nearest ranks the profiles by their dot product with q (a set's vector
// from embed) and returns the k best (ties in profile order).
func (sp *Speakers) nearest(q []float32, k int) []Neighbor {
	type hit struct {
		i int
		s float64
	}
	hits := make([]hit, len(sp.vecs))
	for i, v := range sp.vecs {
		var s float64
		for j, x := range v {
			s += float64(x) * float64(q[j])
		}
		hits[i] = hit{i, s}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.s, a.s) })
	out := make([]Neighbor, 0, min(k, len(hits)))
	for _, h := range hits[:min(k, len(hits))] {
		t := sp.Speakers[h.i]
		out = append(out, Neighbor{Speaker: t.Speaker, Corpus: t.Corpus, Similarity: h.s})
	}
	return out
}

// write writes SpeakersFile and SpeakersVectorsFile into dir.
func (sp *Speakers) write(dir string) error {
	if err := sp.valid(); err != nil {
		return err
	}
	b := make([]byte, 0, 4*sp.Dim*len(sp.vecs))
	for _, v := range sp.vecs {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, SpeakersVectorsFile), b, 0o644); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, SpeakersFile), sp)
}

// valid reports what is wrong with the profiles, or nil.
func (sp *Speakers) valid() error {
	switch {
	case sp.Format != SpeakersFormat:
		return fmt.Errorf("format %q, want %q", sp.Format, SpeakersFormat)
	case sp.FormatVersion != SpeakersVersion:
		return fmt.Errorf("format version %d, this roleprint reads version %d (write the bundle again with this version)", sp.FormatVersion, SpeakersVersion)
	case sp.Vectors != SpeakersVectorsFile:
		return fmt.Errorf("vectors %q, want %q", sp.Vectors, SpeakersVectorsFile)
	case sp.Dim <= 0 || sp.InputDim < sp.Dim || len(sp.PartDims) == 0:
		return fmt.Errorf("dim %d of input dim %d with %d parts: want 0 < dim ≤ input dim and at least one part", sp.Dim, sp.InputDim, len(sp.PartDims))
	case sp.Projection == ProjectionNone && sp.Dim != sp.InputDim, sp.Projection != ProjectionNone && sp.Projection != ProjectionCountSketch:
		return fmt.Errorf("projection %q from %d to %d dimensions: want %q (same width) or %q", sp.Projection, sp.InputDim, sp.Dim, ProjectionNone, ProjectionCountSketch)
	case len(sp.Speakers) > sp.MaxSpeakers || len(sp.Speakers) > sp.TrainingSpeakers:
		return fmt.Errorf("%d speakers of %d training speakers, cap %d: want at most both", len(sp.Speakers), sp.TrainingSpeakers, sp.MaxSpeakers)
	}
	sum := 0
	for _, d := range sp.PartDims {
		sum += d
	}
	if sum != sp.InputDim {
		return fmt.Errorf("part dims sum to %d, input dim %d", sum, sp.InputDim)
	}
	if len(sp.vecs) != len(sp.Speakers) {
		return fmt.Errorf("%d vectors for %d speakers", len(sp.vecs), len(sp.Speakers))
	}
	return nil
}

// readSpeakers reads the profiles of the bundle in dir (file named in its
// spec); errors name the file.
func readSpeakers(dir, file string) (*Speakers, error) {
	path := filepath.Join(dir, file)
	b, err := fsx.ReadFile(path, fsx.MaxInput)
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	var sp Speakers
	if err := json.Unmarshal(b, &sp); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	if sp.Vectors != SpeakersVectorsFile {
		return nil, fmt.Errorf("verifier %s: vectors %q, want %q", path, sp.Vectors, SpeakersVectorsFile)
	}
	vpath := filepath.Join(dir, sp.Vectors)
	raw, err := fsx.ReadFile(vpath, fsx.MaxInput)
	if err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	// A width no vectors file within the read limit could hold is refused
	// before the byte count below is computed: 4 × dim × speakers could
	// wrap around to the file's size.
	if sp.Dim <= 0 || sp.Dim > fsx.MaxInput/4 {
		return nil, fmt.Errorf("verifier %s: dim %d: want 1 to %d", path, sp.Dim, fsx.MaxInput/4)
	}
	if len(raw) != 4*sp.Dim*len(sp.Speakers) {
		return nil, fmt.Errorf("verifier %s: %d bytes, want %d speakers × %d float32 = %d", vpath, len(raw), len(sp.Speakers), sp.Dim, 4*sp.Dim*len(sp.Speakers))
	}
	sp.vecs = make([][]float32, len(sp.Speakers))
	for i := range sp.vecs {
		v := make([]float32, sp.Dim)
		for j := range v {
			v[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(i*sp.Dim+j):]))
			if math.IsNaN(float64(v[j])) || math.IsInf(float64(v[j]), 0) {
				return nil, fmt.Errorf("verifier %s: speaker %d (%s) has a non-finite entry", vpath, i+1, sp.Speakers[i].Speaker)
			}
		}
		sp.vecs[i] = v
	}
	if err := sp.valid(); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", path, err)
	}
	return &sp, nil
}

// HasSpeakers reports whether the bundle records its training speakers.
func (v *Verifier) HasSpeakers() bool { return v.Speakers != nil }

// Nearest returns the k training speakers whose profiles are nearest to
// the set of utterances texts, most similar first (Neighbor.Similarity,
// in the space Speakers.Space describes: the bundle's own, unadapted
// one). A bundle without profiles gives ErrNoSpeakers.
func (v *Verifier) Nearest(ctx context.Context, texts []string, k int) ([]Neighbor, error) {
	out, err := v.NearestSets(ctx, k, texts)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// NearestSets is Nearest for several sets, embedded together.
func (v *Verifier) NearestSets(ctx context.Context, k int, sets ...[]string) ([][]Neighbor, error) {
	if v.Speakers == nil {
		return nil, ErrNoSpeakers
	}
	if k <= 0 {
		return nil, fmt.Errorf("nearest training speakers: k = %d, want k ≥ 1", k)
	}
	for i, s := range sets {
		if len(s) == 0 {
			return nil, fmt.Errorf("nearest training speakers: set %d has no utterances", i+1)
		}
	}
	vecs, err := v.Speakers.embed(ctx, v.enc.parts, v.enc.weights, sets)
	if err != nil {
		return nil, fmt.Errorf("nearest training speakers: %w", err)
	}
	out := make([][]Neighbor, len(vecs))
	for i, q := range vecs {
		out[i] = v.Speakers.nearest(q, k)
	}
	return out, nil
}

// matches checks that the profiles were made by parts as wide as m's.
func (sp *Speakers) matches(m *mixture) error {
	if len(m.parts) != len(sp.PartDims) {
		return fmt.Errorf("profiles of %d parts, the bundle has %d", len(sp.PartDims), len(m.parts))
	}
	for k, p := range m.parts {
		if p.Dim() != sp.PartDims[k] {
			return fmt.Errorf("part %d (%s) is %d wide, its profiles were made %d wide", k+1, p.Name(), p.Dim(), sp.PartDims[k])
		}
	}
	return nil
}

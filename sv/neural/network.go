package neural

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/roleprint/roleprint/internal/panics"
	"github.com/roleprint/roleprint/sv/backend"
)

// Scopes of a Network's store: the utterance model's variables live under
// ModelScope, the set head's under HeadScope, the optimizer's under
// "/optimizers" and "/adam" (GoMLX's names).
const (
	ModelScope = "/model"
	HeadScope  = "/head"
)

// Network is an utterance model plus a set head with their variables in
// one GoMLX store, on one backend: what the trainer trains, the encoder
// embeds with, and a checkpoint saves. It is safe for concurrent
// embedding calls but not for embedding while training.
type Network struct {
	// Model maps token ids to utterance vectors.
	Model UtteranceModel
	// Head pools utterance vectors into set vectors.
	Head SetHead
	// BackendName is the canonical backend name (see sv/backend).
	BackendName string
	// Backend runs the graphs (shared, never finalised here).
	Backend compute.Backend
	// Store holds every variable: model, head, optimizer state.
	Store *model.Store
	// Seed seeds the head's initialisation and the trainer's data order.
	Seed int64
	// MaxTokens caps token ids per utterance (0: Model.MaxLen()).
	MaxTokens int

	mu        sync.Mutex
	embedExec *model.Exec
	headExec  *model.Exec
}

// NewNetwork creates a fresh store on the named backend ("" = default),
// initialises the model's and head's variables (Model.Init, HeadInit) and
// returns the network.
func NewNetwork(m UtteranceModel, head SetHead, backendName string, seed int64) (*Network, error) {
	if head == nil {
		head = MeanHead{}
	}
	if hp, ok := m.(HeadProvider); ok {
		head = hp.SetHead() // a pretrained model's own head (LUAR)
	}
	canon, err := backend.Resolve(backendName)
	if err != nil {
		return nil, err
	}
	b, err := backend.Shared(canon)
	if err != nil {
		return nil, err
	}
	n := &Network{Model: m, Head: head, BackendName: canon, Backend: b, Store: model.NewStore(), Seed: seed}
	if err := panics.Catch(func() error { return m.Init(n.Store.Scope(ModelScope)) }); err != nil {
		return nil, fmt.Errorf("%s: initialising variables: %w", m.Name(), err)
	}
	if hi, ok := head.(HeadInit); ok {
		if err := panics.Catch(func() error { return hi.Init(n.Store.Scope(HeadScope), m.Dim(), seed) }); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// maxTokens is the per-utterance token budget in effect.
func (n *Network) maxTokens() int {
	if n.MaxTokens > 0 {
		return n.MaxTokens
	}
	return n.Model.MaxLen()
}

// Dim is the length of the set vectors (and, for the mean head, of the
// utterance vectors).
func (n *Network) Dim() int { return n.Head.Dim(n.Model.Dim()) }

// ResetExecs drops compiled graphs; call it after replacing variables.
func (n *Network) ResetExecs() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.embedExec != nil {
		n.embedExec.Finalize()
	}
	if n.headExec != nil {
		n.headExec.Finalize()
	}
	n.embedExec, n.headExec = nil, nil
}

// Close releases compiled graphs and variables.
func (n *Network) Close() {
	n.ResetExecs()
	n.Store.Finalize()
}

// utteranceGraph is the embedding graph: ids, mask → [N, D].
func (n *Network) utteranceGraph(scope *model.Scope, ids, mask *Node) *Node {
	return n.Model.Graph(scope.Store().Scope(ModelScope), ids, mask)
}

func (n *Network) headGraph(scope *model.Scope, utts, mask *Node) *Node {
	return n.Head.Graph(scope.Store().Scope(HeadScope), utts, mask)
}

// bucket rounds a token count up to a power of two ≥ 8, capped at max:
// few distinct shapes, so few graph compilations.
func bucket(t, maxT int) int {
	b := 8
	for b < t {
		b *= 2
	}
	return min(b, maxT)
}

// tokenized holds the ids of one text.
type tokenized struct {
	idx int
	ids []int32
}

// EmbedUtterances returns one vector of Model.Dim() per text, computed in
// batches of batchSize (default 64) after sorting texts by length, so
// padding is small; ctx cancels between batches, progress counts texts.
func (n *Network) EmbedUtterances(ctx context.Context, texts []string, batchSize int, progress func(done, total int)) ([][]float32, error) {
	if batchSize <= 0 {
		batchSize = 64
	}
	maxT := n.maxTokens()
	batchSize = embedBatchRows(batchSize, maxT)
	tok := n.Model.Tokenizer()
	items := make([]tokenized, len(texts))
	for i, t := range texts {
		items[i] = tokenized{idx: i, ids: tok.Encode(t, maxT)}
	}
	sort.SliceStable(items, func(a, b int) bool { return len(items[a].ids) < len(items[b].ids) })
	out := make([][]float32, len(texts))
	d := n.Model.Dim()
	for start := 0; start < len(items); start += batchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end := min(start+batchSize, len(items))
		chunk := items[start:end]
		t := bucket(len(chunk[len(chunk)-1].ids), maxT)
		// Pad the batch to a fixed number of rows too (a multiple of 8 up to
		// batchSize) to bound the number of compiled shapes.
		rows := min(batchSize, (len(chunk)+7)/8*8)
		ids := make([]int32, rows*t)
		mask := make([]bool, rows*t)
		pad := tok.PadID()
		for r := 0; r < rows; r++ {
			var seq []int32
			if r < len(chunk) {
				seq = chunk[r].ids
			}
			for j := 0; j < t; j++ {
				if j < len(seq) {
					ids[r*t+j] = seq[j]
					mask[r*t+j] = true
				} else {
					ids[r*t+j] = pad
				}
			}
		}
		vecs, err := n.runEmbed(ids, mask, rows, t)
		if err != nil {
			return nil, err
		}
		for r, it := range chunk {
			v := make([]float32, d)
			copy(v, vecs[r*d:(r+1)*d])
			out[it.idx] = v
		}
		if progress != nil {
			progress(end, len(items))
		}
	}
	return out, nil
}

func (n *Network) runEmbed(ids []int32, mask []bool, rows, t int) ([]float32, error) {
	n.mu.Lock()
	if n.embedExec == nil {
		e, err := model.NewExec(n.Backend, n.Store, n.utteranceGraph)
		if err != nil {
			n.mu.Unlock()
			return nil, err
		}
		n.embedExec = e
	}
	e := n.embedExec
	n.mu.Unlock()
	var out []*tensors.Tensor
	err := panics.Catch(func() error {
		var err error
		out, err = e.Exec(tensors.FromFlatDataAndDimensions(ids, rows, t), tensors.FromFlatDataAndDimensions(mask, rows, t))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s on backend %s: %w", n.Model.Name(), n.BackendName, err)
	}
	return tensors.CopyFlatData[float32](out[0])
}

// EmbedSets returns one vector of Dim() per set: the mean of its
// utterance vectors for the mean head, else the head applied to all its
// utterance vectors (sets padded to the longest in a batch of 32).
func (n *Network) EmbedSets(ctx context.Context, sets [][]string, batchSize int, progress func(done, total int)) ([][]float32, error) {
	var flat []string
	for _, s := range sets {
		flat = append(flat, s...)
	}
	var uttProgress func(int, int)
	if progress != nil {
		uttProgress = func(done, total int) { progress(done*len(sets)/max(total, 1), len(sets)) }
	}
	vecs, err := n.EmbedUtterances(ctx, flat, batchSize, uttProgress)
	if err != nil {
		return nil, err
	}
	d := n.Model.Dim()
	out := make([][]float32, len(sets))
	if _, mean := n.Head.(MeanHead); mean {
		k := 0
		for i, s := range sets {
			v := make([]float32, d)
			for range s {
				for j, x := range vecs[k] {
					v[j] += x
				}
				k++
			}
			if len(s) > 0 {
				for j := range v {
					v[j] /= float32(len(s))
				}
			}
			out[i] = v
		}
		return out, nil
	}
	const setBatch = 32
	offsets := make([]int, len(sets)+1)
	for i, s := range sets {
		offsets[i+1] = offsets[i] + len(s)
	}
	od := n.Dim()
	for start := 0; start < len(sets); start += setBatch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end := min(start+setBatch, len(sets))
		u := 1
		for i := start; i < end; i++ {
			u = max(u, len(sets[i]))
		}
		u = bucket(u, 1<<20)
		rows := setBatch
		utts := make([]float32, rows*u*d)
		mask := make([]bool, rows*u)
		for i := start; i < end; i++ {
			r := i - start
			for j := 0; j < len(sets[i]); j++ {
				copy(utts[(r*u+j)*d:], vecs[offsets[i]+j])
				mask[r*u+j] = true
			}
		}
		res, err := n.runHead(utts, mask, rows, u, d)
		if err != nil {
			return nil, err
		}
		for i := start; i < end; i++ {
			r := i - start
			v := make([]float32, od)
			copy(v, res[r*od:(r+1)*od])
			out[i] = v
		}
	}
	return out, nil
}

func (n *Network) runHead(utts []float32, mask []bool, rows, u, d int) ([]float32, error) {
	n.mu.Lock()
	if n.headExec == nil {
		e, err := model.NewExec(n.Backend, n.Store, n.headGraph)
		if err != nil {
			n.mu.Unlock()
			return nil, err
		}
		n.headExec = e
	}
	e := n.headExec
	n.mu.Unlock()
	var out []*tensors.Tensor
	err := panics.Catch(func() error {
		var err error
		out, err = e.Exec(tensors.FromFlatDataAndDimensions(utts, rows, u, d), tensors.FromFlatDataAndDimensions(mask, rows, u))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s head on backend %s: %w", n.Head.Name(), n.BackendName, err)
	}
	return tensors.CopyFlatData[float32](out[0])
}

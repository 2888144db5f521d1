package neural

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// Exact embedding lookups for training.
//
// The gradient of Gather(table, ids) is a ScatterSum of the output
// gradient rows into a zero table. ONNX Runtime's CPU ScatterND with
// reduction "add" applies update rows on several threads with an
// unsynchronised read-add-write, so two rows aimed at one table row can
// lose one of them (docs/training.md). Repeated token ids in a batch are
// exactly that, so on `onnx` the embedding gradient dropped contributions
// at random.
//
// During training the host therefore deduplicates each batch's ids per
// table (a lookup site): U, the distinct table rows the batch uses, padded
// to a bucket size with distinct unused rows (so no padding row aims at a
// used one: a zero update racing with a real one loses data too), and the
// inverse index inv (position → index into U). The graph does
//
//	E_U = Gather(table, U)          // unique indices: a collision-free scatter
//	x   = OneHot(inv, K) · E_U      // dense product: a GEMM in the gradient
//
// For a bag of rows (the n-gram features' masked mean) the one-hot product
// is summed over the bag on the host instead: counts [N, K] · E_U.
// Forward values equal Gather's (a one-hot product adds one 1·x to zeros);
// sums over a bag may differ from the per-position sum in the last bit
// (another order). Inference keeps the plain Gather (no gradient).
//
// Positions (positionRows) need nothing: their indices are an Iota, all
// distinct.

// lookupSite describes one embedding lookup of a model's graph in terms of
// the token ids the model is fed, so the host can plan it.
type lookupSite struct {
	// lo and hi bound the token ids the site reads: id v in [lo, hi) reads
	// row v − lo of the table; other ids read a zero row (the model masks
	// those positions out).
	lo, hi int32
	// from and to bound the positions of each id row the site covers
	// (to is capped at the batch width).
	from, to int
	// bag: the model sums the rows over the covered positions (counts
	// instead of an inverse index).
	bag bool
}

// exactLookupModel is implemented by models whose lookups can use a plan
// built by the trainer (Transformer).
type exactLookupModel interface {
	lookupSites() []lookupSite
}

// lookupPlan is the host data of one site for one batch.
type lookupPlan struct {
	k      int       // len(unique)
	unique []int64   // [K] distinct table rows
	inv    []int32   // [N, width] index into unique; K for no row (not bag)
	counts []float32 // [N, K] (bag)
	n, w   int
}

// lookupBucket rounds a count of distinct rows up to a power of two ≥ 16,
// capped at the table size: few shapes, so few graph compilations.
func lookupBucket(used, rows int) int {
	b := 16
	for b < used {
		b *= 2
	}
	return min(b, rows)
}

// planLookup deduplicates the ids [n, t] (mask true on real tokens) for
// site s, with at least minK unique slots (the trainer passes the largest
// K so far, so the padded shape only grows and graphs compile a few times).
func planLookup(s lookupSite, ids []int32, mask []bool, n, t, minK int) lookupPlan {
	from, to := min(s.from, t), min(s.to, t)
	w := to - from
	rows := int(s.hi - s.lo)
	index := map[int32]int32{}
	var unique []int64
	rowOf := func(i int) (int32, bool) {
		if !mask[i] || ids[i] < s.lo || ids[i] >= s.hi {
			return 0, false
		}
		return ids[i] - s.lo, true
	}
	for r := 0; r < n; r++ {
		for j := from; j < to; j++ {
			if v, ok := rowOf(r*t + j); ok {
				if _, seen := index[v]; !seen {
					index[v] = int32(len(unique))
					unique = append(unique, int64(v))
				}
			}
		}
	}
	k := min(max(lookupBucket(len(unique), rows), minK), rows)
	// Pad with the lowest unused rows: distinct, and never a used one.
	for v := int32(0); len(unique) < k; v++ {
		if _, used := index[v]; !used {
			unique = append(unique, int64(v))
		}
	}
	p := lookupPlan{k: k, unique: unique, n: n, w: w}
	if s.bag {
		p.counts = make([]float32, n*k)
		for r := 0; r < n; r++ {
			for j := from; j < to; j++ {
				if v, ok := rowOf(r*t + j); ok {
					p.counts[r*k+int(index[v])]++
				}
			}
		}
		return p
	}
	p.inv = make([]int32, n*w)
	for r := 0; r < n; r++ {
		for j := from; j < to; j++ {
			x := int32(k)
			if v, ok := rowOf(r*t + j); ok {
				x = index[v]
			}
			p.inv[r*w+j-from] = x
		}
	}
	return p
}

// tensors returns the plan's graph inputs: unique, then inv or counts.
func (p lookupPlan) tensors() []any {
	second := any(nil)
	if p.counts != nil {
		second = tensors.FromFlatDataAndDimensions(p.counts, p.n, p.k)
	} else {
		second = tensors.FromFlatDataAndDimensions(p.inv, p.n, p.w)
	}
	return []any{tensors.FromFlatDataAndDimensions(p.unique, p.k), second}
}

// exactLookup holds one site's plan as graph nodes.
type exactLookup struct {
	unique *Node // Int64 [K]
	inv    *Node // Int32 [N, W] (position sites)
	counts *Node // Float32 [N, K] (bag sites)
}

// lookupParam is the graph parameter under which the trainer hands the
// plans ([]exactLookup, one per lookupSite) to the model's graph.
const lookupParam = "neural_exact_lookups"

// setExactLookups attaches plan nodes (two per site, in site order) to g.
func setExactLookups(scope *model.Scope, g *Graph, sites []lookupSite, nodes []*Node) {
	out := make([]exactLookup, len(sites))
	for i, s := range sites {
		out[i].unique = nodes[2*i]
		if s.bag {
			out[i].counts = nodes[2*i+1]
		} else {
			out[i].inv = nodes[2*i+1]
		}
	}
	scope.Store().Scope("/").SetGraphParam(g, lookupParam, out)
}

// exactLookups returns the plans attached to g, or nil (inference graphs).
func exactLookups(scope *model.Scope, g *Graph) []exactLookup {
	v, ok := scope.Store().Scope("/").GetGraphParam(g, lookupParam)
	if !ok || v == nil {
		return nil
	}
	return v.([]exactLookup)
}

// rows returns the table rows of the site's positions, [N, W, D].
func (l exactLookup) rows(table *Node) *Node {
	k := l.unique.Shape().Dimensions[0]
	eu := Gather(table, InsertAxes(l.unique, -1)) // [K, D]
	return Einsum("nwk,kd->nwd", OneHot(l.inv, k, table.DType()), eu)
}

// bag returns the sum of the site's rows per id row, [N, D].
func (l exactLookup) bag(table *Node) *Node {
	eu := Gather(table, InsertAxes(l.unique, -1)) // [K, D]
	return Einsum("nk,kd->nd", l.counts, eu)
}

// checkLookups verifies that plans match the sites (a programming error
// otherwise).
func checkLookups(ls []exactLookup, sites int) {
	if len(ls) != sites {
		panic(fmt.Sprintf("neural: %d exact lookups for %d lookup sites", len(ls), sites))
	}
}

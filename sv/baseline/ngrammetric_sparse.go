package baseline

import (
	"context"
	"math"
	"sort"

	"github.com/roleprint/roleprint/data/pairs"
)

// Training works on sparse set vectors. A set's tfidf vector is s − m: s,
// the mean of its utterances' L2-normalised TF-IDF vectors, has a few
// thousand non-zeros among 20,000 features, m (the training mean) is dense.
// With weights w every quantity of the cosine of w⊙(s_a−m) and w⊙(s_b−m)
// splits into sparse sums over the sets' supports plus one dense sum
// Q = Σ w²m² per step, and the gradient into a sparse part plus a dense
// part proportional to w⊙m², accumulated as one scalar per step. This is
// written by hand because no Go library trains sparse models: GoMLX has no
// sparse tensors, and a dense forward/backward over the whole feature
// table per pair is what made the transformer's n-gram table slow. The
// Adam update itself is dense over the (≤ 40,000) weights: the mean term
// makes every feature's gradient non-zero, and one pass over them per
// step costs less than the batch.

// sparseVec is a set's s: sorted feature indices and values.
type sparseVec struct {
	idx []int32
	val []float32
}

// metricData are one channel's training inputs.
type metricData struct {
	sets []sparseVec // by set index
	mean []float64   // m, the global mean (zeros when not centring)
}

// metricPair is a training or dev pair by set index.
type metricPair struct {
	a, b int32
	same bool
	// level is the negative's kind (0 base: other source, 1 hard: same
	// source, 2 harder: same conversation; 0 for positives) and weight
	// its loss weight.
	level  int8
	weight float64
}

// pairLevel classifies a negative as the pair builder made it.
func pairLevel(a, b *pairs.UtteranceSet) int8 {
	switch {
	case a.Source != b.Source:
		return 0
	case a.ConversationID == b.ConversationID:
		return 2
	}
	return 1
}

// chunksPerBatch fixes how a batch is split for the goroutines: each chunk
// has its own gradient buffer and the buffers are summed in chunk order, so
// the weights do not depend on the number of threads or on scheduling.
const chunksPerBatch = 4

// setVectors computes s for every set of ids with channel c.
func setVectors(ctx context.Context, c *metricChannel, sets []*pairs.UtteranceSet) ([]sparseVec, error) {
	out := make([]sparseVec, len(sets))
	counts := map[int32]float64{}
	sum := map[int32]float64{}
	for i, s := range sets {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		clear(sum)
		for _, t := range s.Texts {
			c.tf.sparse(t, counts, func(d int32, x float64) { sum[d] += x })
		}
		inv := 1 / float64(max(len(s.Texts), 1))
		v := sparseVec{idx: make([]int32, 0, len(sum)), val: make([]float32, 0, len(sum))}
		for d := range sum {
			v.idx = append(v.idx, d)
		}
		sort.Slice(v.idx, func(a, b int) bool { return v.idx[a] < v.idx[b] })
		for _, d := range v.idx {
			v.val = append(v.val, float32(sum[d]*inv))
		}
		out[i] = v
	}
	return out, nil
}

// stepState holds what one step's pair computations share for a channel.
// With center_by=corpus a set is centred on its group's mean: means[g] is
// group g's, and q[g][h] = Σ w²·m_g·m_h; with global centring there is one
// group, the global mean.
type stepState struct {
	w, wsq []float64
	means  [][]float64
	q      [][]float64
}

// g maps a set's group to the index of its mean here: the group itself,
// or 0 for a channel with one (global) mean.
func (st *stepState) g(group int) int {
	if len(st.means) == 1 {
		return 0
	}
	return group
}

// pairCos returns cos(w⊙(s_a−m_ga), w⊙(s_b−m_gb)) and the norms² A, B, for
// sets a, b of groups ga, gb.
func (st *stepState) pairCos(a, b *sparseVec, ga, gb int) (cos, A, B float64) {
	ma, mb := st.means[ga], st.means[gb]
	var assA, asmA, assB, asmB, inter float64
	asmAB, asmBA := 0.0, 0.0 // Σ w²·s_a·m_gb and Σ w²·s_b·m_ga (ga ≠ gb)
	for k, i := range a.idx {
		x := float64(a.val[k])
		assA += st.wsq[i] * x * x
		asmA += st.wsq[i] * x * ma[i]
		if ga != gb {
			asmAB += st.wsq[i] * x * mb[i]
		}
	}
	for k, i := range b.idx {
		x := float64(b.val[k])
		assB += st.wsq[i] * x * x
		asmB += st.wsq[i] * x * mb[i]
		if ga != gb {
			asmBA += st.wsq[i] * x * ma[i]
		}
	}
	for ka, kb := 0, 0; ka < len(a.idx) && kb < len(b.idx); {
		switch ia, ib := a.idx[ka], b.idx[kb]; {
		case ia < ib:
			ka++
		case ia > ib:
			kb++
		default:
			inter += st.wsq[ia] * float64(a.val[ka]) * float64(b.val[kb])
			ka++
			kb++
		}
	}
	A = assA - 2*asmA + st.q[ga][ga]
	B = assB - 2*asmB + st.q[gb][gb]
	if A <= 1e-300 || B <= 1e-300 {
		return 0, A, B
	}
	if ga != gb {
		return (inter - asmAB - asmBA + st.q[ga][gb]) / math.Sqrt(A*B), A, B
	}
	return (inter - asmA - asmB + st.q[ga][ga]) / math.Sqrt(A*B), A, B
}

// pairGrad adds g·∂cos/∂w to buf on the supports of a and b, and to
// kappa[gh] the coefficients of the dense part 2·w_i·Σ κ_gh·m_g,i·m_h,i
// that every feature gets (∂cos/∂w_i = 2w_i[a_i b_i/N − cos/2·(a_i²/A +
// b_i²/B)] with a_i = s_ai − m_ga,i, b_i = s_bi − m_gb,i, N = √(AB); off
// the supports a_i = −m_ga,i, b_i = −m_gb,i).
func (st *stepState) pairGrad(a, b *sparseVec, ga, gb int, cos, A, B, g float64, buf []float64, kappa [][]float64) {
	if A <= 1e-300 || B <= 1e-300 || g == 0 {
		return
	}
	n := math.Sqrt(A * B)
	h := cos / 2
	if ga == gb {
		kappa[ga][ga] += g * (1/n - h*(1/A+1/B))
	} else {
		kappa[ga][gb] += g / n
		kappa[ga][ga] -= g * h / A
		kappa[gb][gb] -= g * h / B
	}
	ma, mb := st.means[ga], st.means[gb]
	corr := func(i int32, sa, sb float64) {
		mai, mbi := ma[i], mb[i]
		ai, bi := sa-mai, sb-mbi
		buf[i] += g * 2 * st.w[i] * ((ai*bi-mai*mbi)/n - h*((ai*ai-mai*mai)/A+(bi*bi-mbi*mbi)/B))
	}
	ka, kb := 0, 0
	for ka < len(a.idx) || kb < len(b.idx) {
		switch {
		case kb == len(b.idx) || ka < len(a.idx) && a.idx[ka] < b.idx[kb]:
			corr(a.idx[ka], float64(a.val[ka]), 0)
			ka++
		case ka == len(a.idx) || b.idx[kb] < a.idx[ka]:
			corr(b.idx[kb], 0, float64(b.val[kb]))
			kb++
		default:
			corr(a.idx[ka], float64(a.val[ka]), float64(b.val[kb]))
			ka++
			kb++
		}
	}
}

package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// metricTrainer trains the channels' weights.
type metricTrainer struct {
	e      *ngramMetric
	data   []metricData
	betas  []float64 // normalised to sum 1
	states []*stepState
	proj   *projState // nil without the projection channel
	// group is each set's group (all 0 when centring globally) and
	// groupBeta the group channel's normalised weight: a pair of one
	// group gets groupBeta added to its cosine.
	group     []int
	prof      [][]float64 // group-channel vectors (with groupBeta > 0)
	groupBeta float64
}

// sameGroup is the group channel's part of a pair's cosine.
func (t *metricTrainer) sameGroup(p metricPair) float64 {
	if t.groupBeta <= 0 {
		return 0
	}
	var d float64
	for k, x := range t.prof[p.a] {
		d += x * t.prof[p.b][k]
	}
	return t.groupBeta * d
}

// refresh fills the step states from the weights w (and the projection).
func (t *metricTrainer) refresh(w [][]float64) {
	for ci, st := range t.states {
		st.w = w[ci]
		for i, x := range w[ci] {
			st.wsq[i] = x * x
		}
		for g, mg := range st.means {
			for h := g; h < len(st.means); h++ {
				mh := st.means[h]
				var q float64
				for i, x := range st.wsq {
					q += x * mg[i] * mh[i]
				}
				st.q[g][h], st.q[h][g] = q, q
			}
		}
	}
	if t.proj != nil {
		t.proj.refresh()
	}
}

// cos returns the mixed cosine of a pair under the current states.
func (t *metricTrainer) cos(p metricPair) float64 {
	c := t.sameGroup(p)
	ga, gb := t.group[p.a], t.group[p.b]
	for ci, st := range t.states {
		x, _, _ := st.pairCos(&t.data[ci].sets[p.a], &t.data[ci].sets[p.b], st.g(ga), st.g(gb))
		c += t.betas[ci] * x
	}
	if ps := t.proj; ps != nil {
		za, zb := make([]float64, ps.rank), make([]float64, ps.rank)
		x, _, _ := ps.pairCos(&ps.sets[p.a], &ps.sets[p.b], za, zb)
		c += ps.beta * x
	}
	return c
}

// lossGrad returns the mean contrastive loss of pairs and adds its gradient
// (w.r.t. each channel's weights, without the decay term) to grad, and
// w.r.t. the projection to pgrad (nil without it).
func (t *metricTrainer) lossGrad(pairs []metricPair, grad [][]float64, pgrad []float64, threads int) float64 {
	type chunkOut struct {
		buf   [][]float64
		kappa [][][]float64 // per channel, per group pair
		loss  float64
		pbuf  []float64 // projection gradient (rows of touched features)
		r     []float64 // projection mean term
	}
	outs := make([]chunkOut, chunksPerBatch)
	var wg sync.WaitGroup
	work := make(chan int)
	for range max(1, min(threads, chunksPerBatch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				lo, hi := k*len(pairs)/chunksPerBatch, (k+1)*len(pairs)/chunksPerBatch
				o := chunkOut{buf: make([][]float64, len(t.states)), kappa: make([][][]float64, len(t.states))}
				for ci, st := range t.states {
					o.buf[ci] = make([]float64, len(st.w))
					o.kappa[ci] = make([][]float64, len(st.means))
					for g := range st.means {
						o.kappa[ci][g] = make([]float64, len(st.means))
					}
				}
				cs := make([]float64, len(t.states))
				as := make([]float64, len(t.states))
				bs := make([]float64, len(t.states))
				ps := t.proj
				var za, zb, ga, gb []float64
				if ps != nil {
					o.pbuf, o.r = make([]float64, len(ps.p)), make([]float64, ps.rank)
					za, zb, ga, gb = make([]float64, ps.rank), make([]float64, ps.rank), make([]float64, ps.rank), make([]float64, ps.rank)
				}
				for _, p := range pairs[lo:hi] {
					c := t.sameGroup(p)
					grA, grB := t.group[p.a], t.group[p.b]
					for ci, st := range t.states {
						cs[ci], as[ci], bs[ci] = st.pairCos(&t.data[ci].sets[p.a], &t.data[ci].sets[p.b], st.g(grA), st.g(grB))
						c += t.betas[ci] * cs[ci]
					}
					var pc, pa, pb float64
					if ps != nil {
						pc, pa, pb = ps.pairCos(&ps.sets[p.a], &ps.sets[p.b], za, zb)
						c += ps.beta * pc
					}
					d := 1 - c
					var g float64 // dL/dcos
					if p.same {
						o.loss += p.weight * d
						g = -p.weight
					} else if d < t.e.opts.Margin {
						o.loss += p.weight * (t.e.opts.Margin - d)
						g = p.weight
					}
					for ci, st := range t.states {
						st.pairGrad(&t.data[ci].sets[p.a], &t.data[ci].sets[p.b], st.g(grA), st.g(grB), cs[ci], as[ci], bs[ci], g*t.betas[ci], o.buf[ci], o.kappa[ci])
					}
					if ps != nil {
						ps.pairGrad(&ps.sets[p.a], &ps.sets[p.b], za, zb, pc, pa, pb, g*ps.beta, o.pbuf, o.r, ga, gb)
					}
				}
				outs[k] = o
			}
		}()
	}
	for k := range chunksPerBatch {
		work <- k
	}
	close(work)
	wg.Wait()
	inv := 1 / float64(max(len(pairs), 1))
	var loss float64
	for _, o := range outs {
		loss += o.loss
		for ci, st := range t.states {
			g := grad[ci]
			for i, x := range o.buf[ci] {
				g[i] += x * inv
			}
			for ga, row := range o.kappa[ci] {
				for gb, kk := range row {
					if kk == 0 {
						continue
					}
					k := kk * inv
					ma, mb := st.means[ga], st.means[gb]
					for i := range g {
						g[i] += 2 * st.w[i] * ma[i] * mb[i] * k
					}
				}
			}
		}
		if ps := t.proj; ps != nil {
			for i, x := range o.pbuf {
				pgrad[i] += x * inv
			}
			for i, m := range ps.mean {
				if m == 0 {
					continue
				}
				row := pgrad[i*ps.rank : (i+1)*ps.rank]
				for j, r := range o.r {
					row[j] -= m * r * inv
				}
			}
		}
	}
	return loss * inv
}

// devAUC is the model-selection score on the dev pairs: the AUC of the
// mixed cosine, or with DevByLevel the mean over negative kinds of the AUC
// of all positives against that kind's negatives.
func (t *metricTrainer) devAUC(pairs []metricPair) float64 {
	scores := make([]float64, len(pairs))
	labels := make([]bool, len(pairs))
	for i, p := range pairs {
		scores[i], labels[i] = t.cos(p), p.same
	}
	if !t.e.opts.DevByLevel {
		return stats.AUC(scores, labels)
	}
	var sum float64
	n := 0
	for level := int8(0); level <= 2; level++ {
		var s []float64
		var l []bool
		neg := 0
		for i, p := range pairs {
			if p.same || p.level == level {
				s, l = append(s, scores[i]), append(l, p.same)
				if !p.same {
					neg++
				}
			}
		}
		if neg > 0 && neg < len(s) {
			sum += stats.AUC(s, l)
			n++
		}
	}
	if n == 0 {
		return stats.AUC(scores, labels)
	}
	return sum / float64(n)
}

// Train fits the feature weights on c's training pairs with the paper's
// contrastive loss and Adam, evaluating the dev AUC before training and
// after every epoch and keeping the best weights (the test pairs are never
// read). Fit must come first. Deterministic for the encoder's seed.
func (e *ngramMetric) Train(ctx context.Context, c *pairs.PairCorpus, progress sv.Progress) error {
	if len(e.chans) == 0 || e.chans[0].w == nil {
		return fmt.Errorf("%s: Train before Fit", NameNgramMetric)
	}
	if len(c.Train) == 0 || len(c.Dev) == 0 {
		return fmt.Errorf("%s: train: %d training and %d dev pairs; want both", NameNgramMetric, len(c.Train), len(c.Dev))
	}
	t0 := time.Now()
	if e.opts.descriptorWeights() && e.opts.DescriptorFit == descriptorFitCorpus {
		return e.trainByCorpus(ctx, c, progress, t0)
	}
	t, train, dev, err := e.trainer(ctx, c)
	if err != nil {
		return err
	}
	o := e.opts
	threads := o.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	w := make([][]float64, len(e.chans))
	grad := make([][]float64, len(e.chans))
	m1 := make([][]float64, len(e.chans))
	m2 := make([][]float64, len(e.chans))
	best := make([][]float32, len(e.chans))
	for ci, ch := range e.chans {
		n := len(ch.w)
		w[ci], grad[ci], m1[ci], m2[ci] = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i, x := range ch.w {
			w[ci][i] = float64(x)
		}
		best[ci] = append([]float32(nil), ch.w...)
	}
	var pg, pa1, pa2 []float64 // projection gradient and Adam moments
	var bestP []float32
	if t.proj != nil {
		n := len(t.proj.p)
		pg, pa1, pa2 = make([]float64, n), make([]float64, n), make([]float64, n)
		bestP = append([]float32(nil), e.proj.p...)
	}
	var desc *descriptorAdam
	if o.descriptorWeights() {
		desc = newDescriptorAdam(e.chans)
	}
	t.refresh(w)
	bestAUC, bestEpoch := t.devAUC(dev), 0
	e.curve = []NgramMetricEpoch{{Epoch: 0, DevAUC: bestAUC}}
	e.logf("%s: epoch 0 (untrained) dev AUC %.4f", NameNgramMetric, bestAUC)
	steps := (len(train) + o.BatchSize - 1) / o.BatchSize
	total := steps * o.Epochs
	rng := rand.New(rand.NewPCG(uint64(e.seed), 0x6e6772616d))
	const b1, b2, eps = 0.9, 0.999, 1e-8
	step, epochs := 0, 0
	var lastLoss float64
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		var sum float64
		for s := 0; s < steps; s++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			batch := train[s*o.BatchSize : min(len(train), (s+1)*o.BatchSize)]
			for ci := range grad {
				clear(grad[ci])
			}
			clear(pg)
			sum += t.lossGrad(batch, grad, pg, threads)
			step++
			c1, c2 := 1-math.Pow(b1, float64(step)), 1-math.Pow(b2, float64(step))
			if desc != nil {
				desc.step(grad, w, o, c1, c2)
			} else {
				for ci := range w {
					for i, g := range grad[ci] {
						g += o.Decay * (w[ci][i] - 1)
						m1[ci][i] = b1*m1[ci][i] + (1-b1)*g
						m2[ci][i] = b2*m2[ci][i] + (1-b2)*g*g
						w[ci][i] -= o.LearningRate * (m1[ci][i] / c1) / (math.Sqrt(m2[ci][i]/c2) + eps)
					}
				}
			}
			if t.proj != nil {
				p := t.proj.p
				for i, g := range pg {
					pa1[i] = b1*pa1[i] + (1-b1)*g
					pa2[i] = b2*pa2[i] + (1-b2)*g*g
					p[i] -= o.LearningRate * (pa1[i] / c1) / (math.Sqrt(pa2[i]/c2) + eps)
				}
			}
			t.refresh(w)
			progress.Report(step, total)
		}
		epochs = epoch
		lastLoss = sum / float64(steps)
		auc := t.devAUC(dev)
		e.curve = append(e.curve, NgramMetricEpoch{Epoch: epoch, TrainLoss: lastLoss, DevAUC: auc})
		e.logf("%s: epoch %d train loss %.4f dev AUC %.4f", NameNgramMetric, epoch, lastLoss, auc)
		if auc > bestAUC {
			bestAUC, bestEpoch = auc, epoch
			for ci := range w {
				for i, x := range w[ci] {
					best[ci][i] = float32(x)
				}
			}
			if t.proj != nil {
				for i, x := range t.proj.p {
					bestP[i] = float32(x)
				}
			}
			desc.keep()
		} else if epoch-bestEpoch >= o.Patience {
			break
		}
	}
	for ci, ch := range e.chans {
		ch.w = best[ci]
	}
	desc.restore(e.chans)
	if e.proj != nil {
		e.proj.p = bestP
	}
	e.bestEpoch, e.devAUC = bestEpoch, bestAUC
	by := ""
	if desc != nil {
		by = fmt.Sprintf(" descriptor weights (%d classes)", desc.size())
	}
	return e.finishTraining(c, fmt.Sprintf("trained%s on %d pairs: %d epochs of %d steps (batch %d, lr %g, margin %g, hard weight %g, decay %g), kept epoch %d by dev AUC %.4f, last train loss %.4f, %.1f s",
		by, len(train), epochs, steps, o.BatchSize, o.LearningRate, o.Margin, o.HardWeight, o.Decay, bestEpoch, bestAUC, lastLoss, time.Since(t0).Seconds()))
}

// finishTraining draws the s-norm cohort (cohort > 0), records the
// training summary and saves the weights to the work folder.
func (e *ngramMetric) finishTraining(c *pairs.PairCorpus, summary string) error {
	if e.opts.Cohort > 0 {
		if err := e.chooseCohort(c); err != nil {
			return err
		}
	}
	e.trained = summary
	e.logf("%s: %s", NameNgramMetric, e.trained)
	if e.workDir != "" {
		if err := e.saveWeights(metricCheckpoint(e.workDir)); err != nil {
			return err
		}
	}
	return nil
}

// trainer builds the sparse set vectors of the training and dev pairs.
func (e *ngramMetric) trainer(ctx context.Context, c *pairs.PairCorpus) (*metricTrainer, []metricPair, []metricPair, error) {
	index := map[string]int32{}
	var sets []*pairs.UtteranceSet
	conv := func(ps []pairs.Pair, split string) ([]metricPair, error) {
		out := make([]metricPair, len(ps))
		for i, p := range ps {
			var ab [2]int32
			for k, id := range []string{p.A, p.B} {
				j, ok := index[id]
				if !ok {
					s := c.Sets[id]
					if s == nil {
						return nil, fmt.Errorf("%s: %s pair %s: set %q is not in the corpus", NameNgramMetric, split, p.ID, id)
					}
					j = int32(len(sets))
					index[id] = j
					sets = append(sets, s)
				}
				ab[k] = j
			}
			mp := metricPair{a: ab[0], b: ab[1], same: p.Label == 1, weight: 1}
			if !mp.same {
				mp.level = pairLevel(sets[ab[0]], sets[ab[1]])
				if mp.level > 0 {
					mp.weight = e.opts.HardWeight
				}
			}
			out[i] = mp
		}
		return out, nil
	}
	train, err := conv(c.Train, "train")
	if err != nil {
		return nil, nil, nil, err
	}
	dev, err := conv(c.Dev, "dev")
	if err != nil {
		return nil, nil, nil, err
	}
	t := &metricTrainer{e: e}
	var sumBeta float64
	for _, ch := range e.chans {
		sumBeta += ch.beta
	}
	if e.proj != nil {
		sumBeta += e.proj.beta
	}
	sumBeta += e.groupBeta()
	t.group = make([]int, len(sets))
	if e.groups != nil {
		texts := make([][]string, len(sets))
		for i, s := range sets {
			texts[i] = s.Texts
		}
		t.groupBeta = e.groupBeta() / sumBeta
		t.group, t.prof = e.groups.place(texts, e.opts.GroupTemperature, t.groupBeta > 0)
	}
	for ci, ch := range e.chans {
		v, err := setVectors(ctx, ch, sets)
		if err != nil {
			return nil, nil, nil, err
		}
		m := make([]float64, ch.tf.Dim())
		for i := range ch.tf.mean {
			m[i] = float64(ch.tf.mean[i])
		}
		means := [][]float64{m}
		if e.groups != nil && !ch.global {
			means = e.groups.means[ci]
		}
		q := make([][]float64, len(means))
		for g := range q {
			q[g] = make([]float64, len(means))
		}
		t.data = append(t.data, metricData{sets: v, mean: m})
		t.betas = append(t.betas, ch.beta/sumBeta)
		t.states = append(t.states, &stepState{wsq: make([]float64, len(m)), means: means, q: q})
	}
	if e.proj != nil {
		ps := &projState{rank: e.proj.rank, beta: e.proj.beta / sumBeta, p: make([]float64, len(e.proj.p)),
			pm: make([]float64, e.proj.rank), mean: t.data[0].mean, sets: t.data[0].sets}
		for i, x := range e.proj.p {
			ps.p[i] = float64(x)
		}
		t.proj = ps
	}
	return t, train, dev, nil
}

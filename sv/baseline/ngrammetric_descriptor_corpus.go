package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// Training descriptor weights as they are used on a new show
// (descriptor_fit=corpus). An adapted encoder refits its features on the
// show it scores, centres every set on that show's mean and computes the
// descriptor classes from that show's document frequencies. Trained on the
// union of the training corpora, the classes come from the union's
// frequencies instead, and the pairs that cross corpora reward what tells
// shows apart. Here each training corpus gets its own copy of the channels,
// fitted, centred and classed on its training texts alone; only the pairs
// within one corpus are used, and one set of class weights is shared by
// every corpus: its gradient is the sum of each corpus's per-feature
// gradients over the features of each class. The epoch kept is the one
// with the best mean over corpora of the dev AUC within each corpus. With
// balance_corpora each corpus's pairs are weighted so that every corpus
// counts alike in the loss.

// Values of NgramMetricOptions.DescriptorFit.
const (
	descriptorFitUnion  = "union"
	descriptorFitCorpus = "corpus"
)

// corpusTrainer is one training corpus's trainer and pairs.
type corpusTrainer struct {
	name       string
	t          *metricTrainer
	class      [][]int32 // per channel, the corpus's feature classes
	w          [][]float64
	train, dev []metricPair
}

// corpusItem is a training pair of one corpus.
type corpusItem struct {
	k int
	p metricPair
}

// trainByCorpus trains the class weights with per-corpus features.
func (e *ngramMetric) trainByCorpus(ctx context.Context, c *pairs.PairCorpus, progress sv.Progress, t0 time.Time) error {
	o := e.opts
	subs, err := e.corpusTrainers(ctx, c)
	if err != nil {
		return err
	}
	threads := o.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	desc := newDescriptorAdam(e.chans)
	var items []corpusItem
	for k, s := range subs {
		for _, p := range s.train {
			items = append(items, corpusItem{k, p})
		}
	}
	if len(items) == 0 {
		return fmt.Errorf("%s: descriptor_fit=corpus: no training pair has both sets in one corpus", NameNgramMetric)
	}
	balance := make([]float64, len(subs))
	for k, s := range subs {
		balance[k] = 1
		if o.BalanceCorpora {
			balance[k] = float64(len(items)) / float64(len(subs)*len(s.train))
		}
	}
	setW := func() {
		for _, s := range subs {
			for ci, cls := range s.class {
				for i, k := range cls {
					s.w[ci][i] = desc.theta[ci][k]
				}
			}
			s.t.refresh(s.w)
		}
	}
	devAUC := func() float64 {
		var sum float64
		n := 0
		for _, s := range subs {
			if len(s.dev) == 0 {
				continue
			}
			scores, labels := make([]float64, len(s.dev)), make([]bool, len(s.dev))
			for i, p := range s.dev {
				scores[i], labels[i] = s.t.cos(p), p.same
			}
			if a := stats.AUC(scores, labels); !math.IsNaN(a) {
				sum += a
				n++
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return sum / float64(n)
	}
	setW()
	bestAUC, bestEpoch := devAUC(), 0
	if math.IsNaN(bestAUC) {
		return fmt.Errorf("%s: descriptor_fit=corpus: no corpus has dev pairs of both labels within it", NameNgramMetric)
	}
	e.curve = []NgramMetricEpoch{{Epoch: 0, DevAUC: bestAUC}}
	e.logf("%s: epoch 0 (untrained) mean dev AUC within corpora %.4f", NameNgramMetric, bestAUC)
	steps := (len(items) + o.BatchSize - 1) / o.BatchSize
	total := steps * o.Epochs
	rng := rand.New(rand.NewPCG(uint64(e.seed), 0x6e6772616d))
	grads := make([][][]float64, len(subs))
	for k, s := range subs {
		grads[k] = make([][]float64, len(s.w))
		for ci := range s.w {
			grads[k][ci] = make([]float64, len(s.w[ci]))
		}
	}
	classGrad := make([][]float64, len(e.chans))
	for ci := range classGrad {
		classGrad[ci] = make([]float64, len(desc.theta[ci]))
	}
	byCorpus := make([][]metricPair, len(subs))
	step, epochs := 0, 0
	var lastLoss float64
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		var sum float64
		for st := 0; st < steps; st++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			batch := items[st*o.BatchSize : min(len(items), (st+1)*o.BatchSize)]
			for k := range byCorpus {
				byCorpus[k] = byCorpus[k][:0]
			}
			for _, it := range batch {
				byCorpus[it.k] = append(byCorpus[it.k], it.p)
			}
			for ci := range classGrad {
				clear(classGrad[ci])
			}
			for k, s := range subs {
				if len(byCorpus[k]) == 0 {
					continue
				}
				share := balance[k] * float64(len(byCorpus[k])) / float64(len(batch))
				for ci := range grads[k] {
					clear(grads[k][ci])
				}
				sum += share * s.t.lossGrad(byCorpus[k], grads[k], nil, threads)
				for ci, g := range grads[k] {
					for i, x := range g {
						classGrad[ci][s.class[ci][i]] += share * x
					}
				}
			}
			step++
			const b1, b2 = 0.9, 0.999
			c1, c2 := 1-math.Pow(b1, float64(step)), 1-math.Pow(b2, float64(step))
			desc.stepClasses(classGrad, o, c1, c2)
			setW()
			progress.Report(step, total)
		}
		epochs = epoch
		lastLoss = sum / float64(steps)
		auc := devAUC()
		e.curve = append(e.curve, NgramMetricEpoch{Epoch: epoch, TrainLoss: lastLoss, DevAUC: auc})
		e.logf("%s: epoch %d train loss %.4f mean dev AUC within corpora %.4f", NameNgramMetric, epoch, lastLoss, auc)
		if auc > bestAUC {
			bestAUC, bestEpoch = auc, epoch
			desc.keep()
		} else if epoch-bestEpoch >= o.Patience {
			break
		}
	}
	desc.restore(e.chans)
	e.applyDescriptors()
	e.bestEpoch, e.devAUC = bestEpoch, bestAUC
	names := make([]string, len(subs))
	for k, s := range subs {
		names[k] = fmt.Sprintf("%s (%d pairs)", s.name, len(s.train))
	}
	return e.finishTraining(c, fmt.Sprintf("trained descriptor weights (%d classes) with each corpus's own features: %v; %d epochs of %d steps (batch %d, lr %g, margin %g, hard weight %g, decay %g), kept epoch %d by mean dev AUC within corpora %.4f, last train loss %.4f, %.1f s",
		desc.size(), names, epochs, steps, o.BatchSize, o.LearningRate, o.Margin, o.HardWeight, o.Decay, bestEpoch, bestAUC, lastLoss, time.Since(t0).Seconds()))
}

// corpusTrainers builds one trainer per training corpus: a copy of the
// encoder's channels fitted (vocabulary, IDF, topic mask, mean) on the
// texts of that corpus's training sets, its descriptor classes, and the
// training and dev pairs with both sets in it.
func (e *ngramMetric) corpusTrainers(ctx context.Context, c *pairs.PairCorpus) ([]*corpusTrainer, error) {
	corpusOf := func(id string) string {
		if s := c.Sets[id]; s != nil {
			return pairs.CorpusOf(s.Source)
		}
		return ""
	}
	texts := map[string][]string{}
	seen := map[string]bool{}
	for _, p := range c.Train {
		for _, id := range []string{p.A, p.B} {
			if s := c.Sets[id]; s != nil && !seen[id] {
				seen[id] = true
				k := pairs.CorpusOf(s.Source)
				texts[k] = append(texts[k], s.Texts...)
			}
		}
	}
	names := make([]string, 0, len(texts))
	for k := range texts {
		names = append(names, k)
	}
	slices.Sort(names)
	o := e.opts
	o.CenterBy, o.GroupWeight, o.GroupTemperature, o.GlobalWeight, o.Cohort, o.Weights = centerGlobal, 0, 0, 0, 0, ""
	var out []*corpusTrainer
	for _, name := range names {
		f, err := NewNgramMetric(o, e.seed, "", e.logf)
		if err != nil {
			return nil, err
		}
		m := metricOf(f)
		if err := m.fit(ctx, texts[name]); err != nil {
			return nil, fmt.Errorf("%s: descriptor_fit=corpus: %s: %w", NameNgramMetric, name, err)
		}
		sub := &pairs.PairCorpus{Sets: c.Sets}
		for _, p := range c.Train {
			if corpusOf(p.A) == name && corpusOf(p.B) == name {
				sub.Train = append(sub.Train, p)
			}
		}
		for _, p := range c.Dev {
			if corpusOf(p.A) == name && corpusOf(p.B) == name {
				sub.Dev = append(sub.Dev, p)
			}
		}
		if len(sub.Train) == 0 {
			continue
		}
		t, train, dev, err := m.trainer(ctx, sub)
		if err != nil {
			return nil, err
		}
		ct := &corpusTrainer{name: name, t: t, train: train, dev: dev}
		for _, ch := range m.chans {
			ct.class = append(ct.class, ch.class)
			ct.w = append(ct.w, make([]float64, len(ch.class)))
		}
		out = append(out, ct)
	}
	return out, nil
}

package neural

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/panics"
	"github.com/roleprint/roleprint/stats"
)

// TrainResult reports a training run.
type TrainResult struct {
	// Steps is the number of optimizer steps taken in total (including
	// those before a resume); StepsPerEpoch and TotalSteps give the plan.
	Steps         int `json:"steps"`
	StepsPerEpoch int `json:"steps_per_epoch"`
	TotalSteps    int `json:"total_steps"`
	// ResumedFrom is the step of the checkpoint training resumed from (0:
	// started fresh).
	ResumedFrom int `json:"resumed_from"`
	// Losses holds the mean training loss of each step run in this call.
	Losses []float64 `json:"losses"`
	// DevLoss and DevAUC hold the dev-pair loss and ROC AUC after each
	// epoch (empty without dev pairs or with SkipDev).
	DevLoss []float64 `json:"dev_loss,omitempty"`
	DevAUC  []float64 `json:"dev_auc,omitempty"`
	// Seconds is the wall time of this call; PairsPerSecond counts the
	// training pairs processed per second in it.
	Seconds        float64 `json:"seconds"`
	PairsPerSecond float64 `json:"pairs_per_second"`
	// Config is the resolved training configuration.
	Config TrainConfig `json:"config"`
}

// pairData is one pair ready for batching: token ids of each side's
// utterances and the label.
type pairData struct {
	a, b  [][]int32
	label float32
}

// trainer holds one training run's state.
type trainer struct {
	net   *Network
	cfg   TrainConfig
	train []pairData
	dev   []pairData

	stepExec  *model.Exec // forward+backward (+accumulate) without the update
	applyExec *model.Exec // forward+backward, Adam update
	evalExec  *model.Exec // forward only: per-pair distances and losses
	trainVars []*model.Variable
	// sites are the model's embedding lookups planned on the host for
	// exact gradients (see lookup.go); nil for other models.
	sites []lookupSite
	// lookupK is each site's largest padded unique-row count so far.
	lookupK []int
}

// Train fine-tunes net on c's training pairs with the contrastive loss and
// returns the run's report; see TrainConfig for the settings and
// package doc for the loss. progress (may be nil) counts optimizer steps.
// With cfg.CheckpointDir set it saves checkpoints and resumes from the
// newest one. ctx cancels between steps (a checkpoint is saved first when
// a directory is set).
func Train(ctx context.Context, net *Network, c *pairs.PairCorpus, cfg TrainConfig, progress func(done, total int)) (*TrainResult, error) {
	cfg, err := cfg.resolve(net.Model)
	if err != nil {
		return nil, err
	}
	if len(c.Train) == 0 {
		return nil, fmt.Errorf("train %s: the pair corpus has no training pairs", net.Model.Name())
	}
	net.MaxTokens = cfg.MaxTokens
	t := &trainer{net: net, cfg: cfg}
	if em, ok := net.Model.(exactLookupModel); ok && !cfg.scatterLookups {
		t.sites = em.lookupSites()
	}
	if t.train, err = t.prepare(c, c.Train); err != nil {
		return nil, err
	}
	if !cfg.SkipDev && len(c.Dev) > 0 {
		if t.dev, err = t.prepare(c, c.Dev); err != nil {
			return nil, err
		}
	}
	return t.run(ctx, progress)
}

// prepare tokenizes the sets of pairs once.
func (t *trainer) prepare(c *pairs.PairCorpus, pairList []pairs.Pair) ([]pairData, error) {
	tok := t.net.Model.Tokenizer()
	cache := map[string][][]int32{}
	get := func(id string, p pairs.Pair) ([][]int32, error) {
		if ids, ok := cache[id]; ok {
			return ids, nil
		}
		s := c.Set(id)
		if s == nil {
			return nil, fmt.Errorf("pair %s refers to set %q, which the corpus does not hold", p.ID, id)
		}
		if len(s.Texts) == 0 {
			return nil, fmt.Errorf("pair %s: set %q has no utterances", p.ID, id)
		}
		ids := make([][]int32, len(s.Texts))
		for i, text := range s.Texts {
			ids[i] = tok.Encode(text, t.cfg.MaxTokens)
		}
		cache[id] = ids
		return ids, nil
	}
	out := make([]pairData, len(pairList))
	for i, p := range pairList {
		a, err := get(p.A, p)
		if err != nil {
			return nil, err
		}
		b, err := get(p.B, p)
		if err != nil {
			return nil, err
		}
		out[i] = pairData{a: a, b: b, label: float32(p.Label)}
	}
	return out, nil
}

// batch is the host data of one micro-batch.
type batch struct {
	ids      []int32   // [P*2*K*T]
	tokMask  []bool    // [P*2*K*T]
	uttMask  []bool    // [P*2*K]
	labels   []float32 // [P]
	weights  []float32 // [P]
	realSize int
	lookups  []lookupPlan // one per trainer site
}

// makeBatch lays out pairs (padded to P with weight-0 copies of the first)
// into fixed-shape tensors; rng samples utterances of long sets.
func (t *trainer) makeBatch(pairs []pairData, p int, rng *rand.Rand) batch {
	k, tt := t.cfg.MaxUtterances, t.cfg.MaxTokens
	pad := t.net.Model.Tokenizer().PadID()
	bt := batch{
		ids: make([]int32, p*2*k*tt), tokMask: make([]bool, p*2*k*tt), uttMask: make([]bool, p*2*k),
		labels: make([]float32, p), weights: make([]float32, p), realSize: len(pairs),
	}
	for i := range bt.ids {
		bt.ids[i] = pad
	}
	for i := 0; i < p; i++ {
		src := pairs[0]
		if i < len(pairs) {
			src = pairs[i]
			bt.weights[i] = 1
		}
		bt.labels[i] = src.label
		for side, utts := range [][][]int32{src.a, src.b} {
			chosen := utts
			if len(utts) > k {
				idx := rng.Perm(len(utts))[:k]
				sort.Ints(idx)
				chosen = make([][]int32, k)
				for j, x := range idx {
					chosen[j] = utts[x]
				}
			}
			for u, ids := range chosen {
				row := (i*2+side)*k + u
				bt.uttMask[row] = true
				for j, id := range ids {
					bt.ids[row*tt+j] = id
					bt.tokMask[row*tt+j] = true
				}
			}
		}
	}
	return bt
}

// planLookups fills bt.lookups for the trainer's sites (training steps
// only: evaluation has no gradient).
func (t *trainer) planLookups(bt *batch, p int) {
	n, tt := p*2*t.cfg.MaxUtterances, t.cfg.MaxTokens
	bt.lookups = bt.lookups[:0]
	if len(t.lookupK) != len(t.sites) {
		t.lookupK = make([]int, len(t.sites))
	}
	for i, s := range t.sites {
		p := planLookup(s, bt.ids, bt.tokMask, n, tt, t.lookupK[i])
		t.lookupK[i] = p.k
		bt.lookups = append(bt.lookups, p)
	}
}

func (bt batch) tensors(p, k, tt int) []any {
	return []any{
		tensors.FromFlatDataAndDimensions(bt.ids, p*2*k, tt),
		tensors.FromFlatDataAndDimensions(bt.tokMask, p*2*k, tt),
		tensors.FromFlatDataAndDimensions(bt.uttMask, p, 2, k),
		tensors.FromFlatDataAndDimensions(bt.labels, p),
		tensors.FromFlatDataAndDimensions(bt.weights, p),
	}
}

// runStep runs one forward/backward pass, exec(args...), and returns the
// loss (its first output), then releases every input and output tensor of
// the pass, whether it failed or not. Their on-device copies (ONNX
// Runtime's buffers) live outside the Go heap, so left to the garbage
// collector they pile up faster than it runs: the n-gram transformer's
// [N, K] count matrices grew the best-cpu recipe's resident memory by about
// 37 MB a step, past 24 GiB in half an epoch.
func runStep(exec func(...any) ([]*tensors.Tensor, error), args []any) (float32, error) {
	var out []*tensors.Tensor
	defer func() {
		for _, a := range args {
			if t, ok := a.(*tensors.Tensor); ok {
				_ = t.FinalizeAll()
			}
		}
		for _, t := range out {
			_ = t.FinalizeAll()
		}
	}()
	if err := panics.Catch(func() error { var e error; out, e = exec(args...); return e }); err != nil {
		return 0, err
	}
	if len(out) == 0 {
		return 0, errors.New("the step graph returned no loss")
	}
	ls, err := tensors.CopyFlatData[float32](out[0])
	if err != nil {
		return 0, err
	}
	return ls[0], nil
}

// lookupTensors returns the lookup plans' graph inputs, in site order.
func (bt batch) lookupTensors() []any {
	var out []any
	for _, l := range bt.lookups {
		out = append(out, l.tensors()...)
	}
	return out
}

// pairLosses builds the forward graph: per-pair distance d = 1 − cos of the
// two set vectors and loss y·d + (1−y)·max(0, m−d).
func (t *trainer) pairLosses(scope *model.Scope, ids, tokMask, uttMask, labels *Node) (dist, loss *Node) {
	dims := uttMask.Shape().Dimensions
	p, k := dims[0], dims[2]
	u := t.net.utteranceGraph(scope, ids, tokMask) // [P*2*K, D]
	d := u.Shape().Dimensions[1]
	u = Reshape(u, p*2, k, d)
	s := t.net.headGraph(scope, u, Reshape(uttMask, p*2, k)) // [P*2, D']
	s = Reshape(s, p, 2, s.Shape().Dimensions[1])
	a, b := selectPosition(s, 0), selectPosition(s, 1)
	const eps = 1e-12 // keeps Sqrt's gradient finite at 0
	na := Sqrt(AddScalar(ReduceSum(Square(a), 1), eps))
	nb := Sqrt(AddScalar(ReduceSum(Square(b), 1), eps))
	cos := Div(ReduceSum(Mul(a, b), 1), Mul(na, nb))
	dist = OneMinus(cos)
	hinge := MaxScalar(AddScalar(Neg(dist), t.cfg.Margin), 0)
	loss = Add(Mul(labels, dist), Mul(OneMinus(labels), hinge))
	return dist, loss
}

// trainableVars lists the float variables of the model and head scopes
// that are marked trainable, sorted by path.
func (t *trainer) trainableVars() []*model.Variable {
	var out []*model.Variable
	for v := range t.net.Store.IterVariables() {
		p := v.Path()
		if !v.Trainable || !v.DType().IsFloat() {
			continue
		}
		if strings.HasPrefix(p, ModelScope+"/") || strings.HasPrefix(p, HeadScope+"/") {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path() < out[j].Path() })
	return out
}

// stepGraph builds one training pass: the scaled loss sum, its gradients,
// and either accumulation (apply=false) or accumulation + Adam (apply=true).
func (t *trainer) stepGraph(apply bool) func(scope *model.Scope, in []*Node) []*Node {
	return func(scope *model.Scope, in []*Node) []*Node {
		g := in[0].Graph()
		scope.Store().SetTraining(g, true)
		ids, tokMask, uttMask, labels, weights, scale, lr := in[0], in[1], in[2], in[3], in[4], in[5], in[6]
		if len(t.sites) > 0 {
			setExactLookups(scope, g, t.sites, in[7:])
		}
		_, loss := t.pairLosses(scope, ids, tokMask, uttMask, labels)
		lossSum := ReduceAllSum(Mul(loss, weights))
		objective := Mul(lossSum, scale)
		var used []*model.Variable
		var nodes []*Node
		for _, v := range t.trainVars {
			if v.InUseByGraph(g) {
				used = append(used, v)
				nodes = append(nodes, v.NodeValue(g))
			}
		}
		grads := Gradient(objective, nodes...)
		accumulate := t.cfg.MicroBatchPairs < t.cfg.BatchPairs
		for i, v := range used {
			grad := grads[i]
			if accumulate {
				acc := accumulatorVar(t.net.Store, v)
				grad = Add(acc.NodeValue(g), grad)
				if apply {
					acc.SetNodeValue(ZerosLike(grad))
				} else {
					acc.SetNodeValue(grad)
				}
			}
			if apply {
				adamUpdate(t.net.Store, g, v, grad, lr)
			}
		}
		if apply {
			c := adamStepVar(t.net.Store)
			c.SetNodeValue(OnePlus(c.NodeValue(g)))
		}
		return []*Node{lossSum}
	}
}

// evalGraph returns per-pair distances and losses.
func (t *trainer) evalGraph(scope *model.Scope, ids, tokMask, uttMask, labels *Node) (*Node, *Node) {
	return t.pairLosses(scope, ids, tokMask, uttMask, labels)
}

// Adam's hyperparameters (Kingma & Ba defaults).
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

// adamUpdate applies one Adam step to v with gradient grad and learning
// rate lr (a graph input, so the schedule lives on the host). GoMLX's own
// Adam reads its learning rate from a variable; writing the few lines here
// keeps the schedule an input and the optimizer state in known places.
func adamUpdate(store *model.Store, g *Graph, v *model.Variable, grad, lr *Node) {
	m1, m2 := momentVars(store, v)
	step := OnePlus(adamStepVar(store).NodeValue(g))
	m := Add(MulScalar(m1.NodeValue(g), adamBeta1), MulScalar(grad, 1-adamBeta1))
	s := Add(MulScalar(m2.NodeValue(g), adamBeta2), MulScalar(Square(grad), 1-adamBeta2))
	m1.SetNodeValue(m)
	m2.SetNodeValue(s)
	bc1 := OneMinus(Pow(Scalar(g, dtypes.Float32, adamBeta1), step))
	bc2 := OneMinus(Pow(Scalar(g, dtypes.Float32, adamBeta2), step))
	mHat := Div(m, bc1)
	sHat := Div(s, bc2)
	upd := Mul(lr, Div(mHat, AddScalar(Sqrt(sHat), adamEps)))
	v.SetNodeValue(Sub(v.NodeValue(g), upd))
}

func zerosLikeVar(store *model.Store, path string, v *model.Variable) *model.Variable {
	if x := store.GetVariable(path); x != nil {
		return x
	}
	t := tensors.FromShape(v.Shape())
	x := store.VariableWithValue(path, t)
	x.SetTrainable(false)
	return x
}

func momentVars(store *model.Store, v *model.Variable) (m1, m2 *model.Variable) {
	return zerosLikeVar(store, "/adam"+v.Path()+"/m1", v), zerosLikeVar(store, "/adam"+v.Path()+"/m2", v)
}

func accumulatorVar(store *model.Store, v *model.Variable) *model.Variable {
	return zerosLikeVar(store, "/accum"+v.Path(), v)
}

func adamStepVar(store *model.Store) *model.Variable {
	if x := store.GetVariable("/adam/step"); x != nil {
		return x
	}
	x := store.VariableWithValue("/adam/step", float32(0))
	x.SetTrainable(false)
	return x
}

// plan returns steps per epoch and the total number of steps.
func (t *trainer) plan() (perEpoch, total int) {
	perEpoch = (len(t.train) + t.cfg.BatchPairs - 1) / t.cfg.BatchPairs
	total = perEpoch * t.cfg.Epochs
	if t.cfg.MaxSteps > 0 && t.cfg.MaxSteps < total {
		total = t.cfg.MaxSteps
	}
	return perEpoch, total
}

// epochOrder is the pair order of an epoch: a permutation drawn from (seed, epoch).
func (t *trainer) epochOrder(epoch int) []int {
	rng := rand.New(rand.NewPCG(uint64(t.cfg.Seed), uint64(epoch)+0x9e3779b97f4a7c15))
	return rng.Perm(len(t.train))
}

func (t *trainer) logf(format string, args ...any) {
	if t.cfg.Logf != nil {
		t.cfg.Logf(format, args...)
	}
}

func (t *trainer) run(ctx context.Context, progress func(done, total int)) (*TrainResult, error) {
	start := time.Now()
	perEpoch, total := t.plan()
	res := &TrainResult{StepsPerEpoch: perEpoch, TotalSteps: total, Config: t.cfg}
	t.trainVars = t.trainableVars()
	if len(t.trainVars) == 0 {
		return nil, fmt.Errorf("train %s: the model has no trainable variables", t.net.Model.Name())
	}
	// Create the optimizer state up front so a checkpoint always holds it.
	for _, v := range t.trainVars {
		momentVars(t.net.Store, v)
		if t.cfg.MicroBatchPairs < t.cfg.BatchPairs {
			accumulatorVar(t.net.Store, v)
		}
	}
	adamStepVar(t.net.Store)

	step := 0
	if t.cfg.CheckpointDir != "" && !t.cfg.Fresh {
		st, err := LoadLatestCheckpoint(t.cfg.CheckpointDir, t.net)
		if err != nil {
			return nil, err
		}
		if st != nil {
			if st.TotalSteps != total || st.Seed != t.cfg.Seed {
				return nil, fmt.Errorf("checkpoint %s is from a different plan (total steps %d, seed %d; now %d, %d): use a new directory or Fresh",
					t.cfg.CheckpointDir, st.TotalSteps, st.Seed, total, t.cfg.Seed)
			}
			step = st.Step
			if len(st.LookupK) == len(t.sites) {
				t.lookupK = st.LookupK
			}
			res.ResumedFrom = step
			t.logf("resuming %s from step %d/%d (%s)", t.net.Model.Name(), step, total, t.cfg.CheckpointDir)
		}
	}
	var err error
	b := t.net.Backend
	if t.applyExec, err = model.NewExec(b, t.net.Store, t.stepGraph(true)); err != nil {
		return nil, err
	}
	defer t.applyExec.Finalize()
	if t.cfg.MicroBatchPairs < t.cfg.BatchPairs {
		if t.stepExec, err = model.NewExec(b, t.net.Store, t.stepGraph(false)); err != nil {
			return nil, err
		}
		defer t.stepExec.Finalize()
	}
	defer func() {
		if t.evalExec != nil {
			t.evalExec.Finalize()
		}
	}()
	warm := warmupSteps(t.cfg.WarmupFraction, total)
	p, k, tt := t.cfg.MicroBatchPairs, t.cfg.MaxUtterances, t.cfg.MaxTokens
	var order []int
	orderEpoch := -1
	pairsDone := 0
	save := func() error {
		if t.cfg.CheckpointDir == "" {
			return nil
		}
		st := CheckpointState{Step: step, TotalSteps: total, Seed: t.cfg.Seed, Model: t.net.Model.Name(),
			ModelConfig: t.net.Model.Config(), Head: t.net.Head.Name(), Backend: t.net.BackendName, LookupK: t.lookupK}
		if err := SaveCheckpoint(t.cfg.CheckpointDir, t.net, st, t.cfg.KeepCheckpoints); err != nil {
			return err
		}
		t.logf("checkpoint: step %d/%d in %s", step, total, t.cfg.CheckpointDir)
		return nil
	}
	for step < total {
		if err := ctx.Err(); err != nil {
			if serr := save(); serr != nil {
				return nil, serr
			}
			return nil, err
		}
		epoch, idx := step/perEpoch, step%perEpoch
		if epoch != orderEpoch {
			order, orderEpoch = t.epochOrder(epoch), epoch
		}
		lo, hi := idx*t.cfg.BatchPairs, min((idx+1)*t.cfg.BatchPairs, len(t.train))
		batchPairs := make([]pairData, 0, hi-lo)
		for _, j := range order[lo:hi] {
			batchPairs = append(batchPairs, t.train[j])
		}
		lr := learningRate(t.cfg.LearningRate, step+1, warm, total)
		scale := float32(1 / float64(len(batchPairs)))
		rng := rand.New(rand.NewPCG(uint64(t.cfg.Seed)^0x5bd1e995, uint64(step)))
		var lossSum float64
		for mlo := 0; mlo < len(batchPairs); mlo += p {
			mhi := min(mlo+p, len(batchPairs))
			bt := t.makeBatch(batchPairs[mlo:mhi], p, rng)
			t.planLookups(&bt, p)
			exec := t.applyExec
			if mhi < len(batchPairs) {
				exec = t.stepExec
			}
			args := append(bt.tensors(p, k, tt), tensors.FromScalar(scale), tensors.FromScalar(float32(lr)))
			args = append(args, bt.lookupTensors()...)
			loss, err := runStep(exec.Exec, args)
			if err != nil {
				return nil, fmt.Errorf("train %s on backend %s, step %d: %w", t.net.Model.Name(), t.net.BackendName, step+1, err)
			}
			lossSum += float64(loss)
		}
		step++
		pairsDone += len(batchPairs)
		mean := lossSum / float64(len(batchPairs))
		if math.IsNaN(mean) || math.IsInf(mean, 0) {
			return nil, fmt.Errorf("train %s: loss became %v at step %d (lower the learning rate)", t.net.Model.Name(), mean, step)
		}
		res.Losses = append(res.Losses, mean)
		if t.cfg.OnStep != nil {
			t.cfg.OnStep(step, mean)
		}
		if progress != nil {
			progress(step, total)
		}
		if step%perEpoch == 0 || step == total {
			if len(t.dev) > 0 {
				dl, auc, err := t.evaluate(t.dev)
				if err != nil {
					return nil, err
				}
				res.DevLoss = append(res.DevLoss, dl)
				res.DevAUC = append(res.DevAUC, auc)
				t.logf("epoch %d: train loss %.4f, dev loss %.4f, dev AUC %.4f", (step-1)/perEpoch+1, mean, dl, auc)
			}
		}
		if step%t.cfg.CheckpointEvery == 0 || step == total {
			if err := save(); err != nil {
				return nil, err
			}
		}
	}
	t.net.ResetExecs() // embedding graphs must see the trained weights
	res.Steps = step
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.PairsPerSecond = float64(pairsDone) / res.Seconds
	}
	return res, nil
}

// evaluate returns the mean loss and the ROC AUC of −distance on pairs.
func (t *trainer) evaluate(pairs []pairData) (meanLoss, auc float64, err error) {
	if t.evalExec == nil {
		if t.evalExec, err = model.NewExec(t.net.Backend, t.net.Store, t.evalGraph); err != nil {
			return 0, 0, err
		}
	}
	p, k, tt := t.cfg.MicroBatchPairs, t.cfg.MaxUtterances, t.cfg.MaxTokens
	rng := rand.New(rand.NewPCG(uint64(t.cfg.Seed), 0xdead))
	var scores []float64
	var labels []bool
	var lossSum float64
	for lo := 0; lo < len(pairs); lo += p {
		hi := min(lo+p, len(pairs))
		bt := t.makeBatch(pairs[lo:hi], p, rng)
		args := bt.tensors(p, k, tt)[:4]
		var out []*tensors.Tensor
		if err := panics.Catch(func() error { var e error; out, e = t.evalExec.Exec(args...); return e }); err != nil {
			return 0, 0, err
		}
		d, _ := tensors.CopyFlatData[float32](out[0])
		l, _ := tensors.CopyFlatData[float32](out[1])
		for i := 0; i < hi-lo; i++ {
			scores = append(scores, -float64(d[i]))
			labels = append(labels, pairs[lo+i].label > 0.5)
			lossSum += float64(l[i])
		}
	}
	return lossSum / float64(len(pairs)), stats.AUC(scores, labels), nil
}

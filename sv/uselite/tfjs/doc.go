// Package tfjs loads a TensorFlow.js graph model (the model.json topology,
// its weights manifest and the binary weight shards) and converts it, op by
// op, into a GoMLX graph whose float weights are trainable variables of a
// model.Store.
//
// It was written for Universal Sentence Encoder Lite (package
// sv/uselite) and converts the 42 op types that model uses (see
// SupportedOps); a graph with any other op fails with an error naming the
// op and the node, before anything is built.
//
// # Why a hand-written converter
//
// No Go library reads TF.js graph models; onnx-gomlx converts ONNX, and
// there is no offline route from TF.js to ONNX here. The converter follows
// TensorFlow's op semantics as implemented by tfjs-core 4.x (the reference
// the Go results are checked against), including tfjs's int64 → int32
// narrowing and its ScatterNd reading only as many update rows as there are
// index rows.
//
// # Static shapes
//
// GoMLX compiles graphs for fixed shapes, while TF graphs compute shapes at
// run time (Shape → StridedSlice → Pack → Reshape chains). The converter
// folds every value that depends only on constants and static shapes at
// build time, evaluating those ops with the same op code on the pure-Go
// backend, so shape arguments (Reshape's shape, axes, permutations) are
// known when the graph is built.
//
// One op has a data-dependent shape: Where(condition), which lists the
// coordinates of the true elements. When its input is known at build time
// it is folded exactly. Otherwise its output has a static capacity (the
// number of elements of the condition) and a run-time count: rows past the
// count are padding holding out-of-range coordinates. Such a "padded"
// tensor may flow through row-wise ops (elementwise math, MatMul, BiasAdd,
// Cast, Reshape/ExpandDims/Squeeze/StridedSlice that keep the padded axis,
// GatherV2/GatherNd indexed by it) and is consumed by ScatterNd and
// SparseToDense, which drop the padding rows. Any other op that would mix
// padding rows into real values (a reduction over the padded axis, say)
// is rejected with an error naming the node. Shape of a padded tensor
// reports its capacity.
//
// Values the graph computes from data but that must be static for GoMLX
// (the dense batch shape of a sparse input, say) can be pinned by the
// caller with Options.Pinned; the caller guarantees they hold.
package tfjs

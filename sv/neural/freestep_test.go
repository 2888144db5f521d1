package neural

import (
	"testing"

	"github.com/gomlx/gomlx/core/tensors"
)

// TestFreeStepTensors: a training step's input and output tensors are
// released when the step is done (left to the garbage collector, their
// on-device copies grew the n-gram recipe's memory by tens of MB a step),
// and arguments that are not tensors are left alone.
func TestFreeStepTensors(t *testing.T) {
	in := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4}, 2, 2)
	scalar := tensors.FromScalar(float32(0.5))
	out := []*tensors.Tensor{tensors.FromScalar(float32(1)), tensors.FromFlatDataAndDimensions([]int32{1, 2}, 2)}
	args := []any{in, scalar, "not a tensor", 3}
	for _, x := range append([]*tensors.Tensor{in, scalar}, out...) {
		if !x.Ok() {
			t.Fatalf("tensor %v not usable before the step is freed", x.Shape())
		}
	}
	freeStepTensors(args, out)
	for _, x := range append([]*tensors.Tensor{in, scalar}, out...) {
		if x.Ok() {
			t.Errorf("tensor %v still holds its storage after freeStepTensors", x.Shape())
		}
	}
}

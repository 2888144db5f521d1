package neural

import (
	"errors"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"
)

// TestRunStepFreesTensors: the trainer's step runner returns the loss and
// releases the step's input and output tensors, on success and on failure
// (left to the garbage collector, their on-device copies grew the n-gram
// recipe's memory by tens of MB a step); arguments that are not tensors are
// left alone, and a graph with no output is an error, not a panic.
func TestRunStepFreesTensors(t *testing.T) {
	newArgs := func() ([]any, []*tensors.Tensor) {
		in := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4}, 2, 2)
		scalar := tensors.FromScalar(float32(0.5))
		return []any{in, scalar, "not a tensor", 3}, []*tensors.Tensor{in, scalar}
	}
	freed := func(what string, ts ...*tensors.Tensor) {
		t.Helper()
		for _, x := range ts {
			if x.Ok() {
				t.Errorf("%s: tensor %v still holds its storage after the step", what, x.Shape())
			}
		}
	}

	args, in := newArgs()
	var out []*tensors.Tensor
	loss, err := runStep(func(a ...any) ([]*tensors.Tensor, error) {
		if len(a) != 4 || !a[0].(*tensors.Tensor).Ok() {
			t.Fatal("exec got freed or missing arguments")
		}
		out = []*tensors.Tensor{tensors.FromScalar(float32(1.25)), tensors.FromFlatDataAndDimensions([]int32{1, 2}, 2)}
		return out, nil
	}, args)
	if err != nil || loss != 1.25 {
		t.Fatalf("runStep = %v, %v; want the first output 1.25", loss, err)
	}
	freed("success", append(in, out...)...)

	args, in = newArgs()
	if _, err := runStep(func(...any) ([]*tensors.Tensor, error) { return nil, errors.New("boom") }, args); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failing exec: err %v, want its error", err)
	}
	freed("failure", in...)

	args, in = newArgs()
	if _, err := runStep(func(...any) ([]*tensors.Tensor, error) { return nil, nil }, args); err == nil || !strings.Contains(err.Error(), "no loss") {
		t.Errorf("no outputs: err %v, want an error naming the missing loss", err)
	}
	freed("no outputs", in...)
}

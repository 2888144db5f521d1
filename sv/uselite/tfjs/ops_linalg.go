package tfjs

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
)

// Matrix products: MatMul, BatchMatMul (V1 and V2 broadcasting) and
// Conv2D.

func init() {
	registerOp("MatMul", true, opMatMul)
	registerOp("BatchMatMul", true, opBatchMatMul)
	registerOp("BatchMatMulV2", true, opBatchMatMul)
	registerOp("Conv2D", true, opConv2D)
}

// opMatMul multiplies two matrices (transpose_a / transpose_b).
func opMatMul(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	x, y := b.node(in[0]), b.node(in[1])
	if x.Rank() != 2 || y.Rank() != 2 {
		return nil, fmt.Errorf("MatMul needs matrices, got %s and %s", x.Shape(), y.Shape())
	}
	ta, tb := n.AttrBool("transpose_a", false), n.AttrBool("transpose_b", false)
	ca, cb := 1, 0
	if ta {
		ca = 0
	}
	if tb {
		cb = 1
	}
	if x.Shape().Dimensions[ca] != y.Shape().Dimensions[cb] {
		return nil, fmt.Errorf("inner dimensions differ: %s × %s (transpose_a=%v, transpose_b=%v)", x.Shape(), y.Shape(), ta, tb)
	}
	out := graph.DotGeneral(x, []int{ca}, nil, y, []int{cb}, nil)
	p, err := onlyPad(in...)
	if err != nil || p == nil {
		return []*value{nodeValue(out)}, err
	}
	if in[0].pad != nil && in[1].pad != nil {
		return nil, errPadded(in[1], "the second factor")
	}
	switch {
	case in[0].pad != nil && in[0].pad.axis != ca:
		return []*value{padded(out, p, 0)}, nil
	case in[1].pad != nil && in[1].pad.axis != cb:
		return []*value{padded(out, p, 1)}, nil
	}
	return nil, fmt.Errorf("a factor has a data-dependent length (padded output of Where %q) along the contracted axis", p.where)
}

// opBatchMatMul multiplies the last two axes of x and y (adj_x / adj_y
// transpose them), broadcasting the leading batch axes.
func opBatchMatMul(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	x, y := b.node(in[0]), b.node(in[1])
	if x.Rank() < 2 || y.Rank() < 2 {
		return nil, fmt.Errorf("BatchMatMul needs rank ≥ 2, got %s and %s", x.Shape(), y.Shape())
	}
	p, err := onlyPad(in...)
	if err != nil {
		return nil, err
	}
	nb := max(x.Rank(), y.Rank()) - 2
	offX, offY := nb+2-x.Rank(), nb+2-y.Rank()
	x, y = expandLeft(x, nb+2), expandLeft(y, nb+2)
	batch := make([]int, nb)
	for i := range batch {
		dx, dy := x.Shape().Dimensions[i], y.Shape().Dimensions[i]
		switch {
		case dx == dy || dy == 1:
			batch[i] = dx
		case dx == 1:
			batch[i] = dy
		default:
			return nil, fmt.Errorf("batch dimensions of %s and %s cannot be broadcast", x.Shape(), y.Shape())
		}
	}
	x = broadcastTo(x, append(append([]int{}, batch...), x.Shape().Dimensions[nb:]...))
	y = broadcastTo(y, append(append([]int{}, batch...), y.Shape().Dimensions[nb:]...))
	cx, cy := nb+1, nb
	if n.AttrBool("adj_x", false) {
		cx = nb
	}
	if n.AttrBool("adj_y", false) {
		cy = nb + 1
	}
	if x.Shape().Dimensions[cx] != y.Shape().Dimensions[cy] {
		return nil, fmt.Errorf("inner dimensions differ: %s × %s", x.Shape(), y.Shape())
	}
	axes := make([]int, nb)
	for i := range axes {
		axes[i] = i
	}
	out := graph.DotGeneral(x, []int{cx}, axes, y, []int{cy}, axes)
	if p == nil {
		return []*value{nodeValue(out)}, nil
	}
	// Output axes: batch..., x's free matrix axis, y's free matrix axis.
	pa := -1
	for i, v := range in {
		if v.pad == nil {
			continue
		}
		off, contracted, freeOut := offX, cx, nb
		if i == 1 {
			off, contracted, freeOut = offY, cy, nb+1
		}
		a := v.pad.axis + off
		switch {
		case a == contracted:
			return nil, errPadded(v, "a factor")
		case a >= nb:
			a = freeOut
		}
		if pa >= 0 && pa != a {
			return nil, errPadded(v, "a factor")
		}
		pa = a
	}
	return []*value{padded(out, p, pa)}, nil
}

// opConv2D is a 2-D convolution with TF's NHWC/NCHW layouts, HWIO filter,
// strides, dilations and VALID/SAME/EXPLICIT padding. A 1×1 filter with
// unit strides (a per-position dense layer, as in transformer models) is
// converted to a plain contraction over the channels.
func opConv2D(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	x, f := b.node(in[0]), b.node(in[1])
	if x.Rank() != 4 || f.Rank() != 4 {
		return nil, fmt.Errorf("Conv2D needs a 4-D input and filter, got %s and %s", x.Shape(), f.Shape())
	}
	format, err := n.AttrString("data_format", "NHWC")
	if err != nil {
		return nil, err
	}
	padding, err := n.AttrString("padding", "VALID")
	if err != nil {
		return nil, err
	}
	strides, err := n.AttrInts("strides")
	if err != nil {
		return nil, err
	}
	dilations, err := n.AttrInts("dilations")
	if err != nil {
		return nil, err
	}
	hAxis, wAxis, cAxis := 1, 2, 3
	if format == "NCHW" {
		hAxis, wAxis, cAxis = 2, 3, 1
	} else if format != "NHWC" {
		return nil, fmt.Errorf("unsupported data_format %q", format)
	}
	sh, sw, dh, dw := 1, 1, 1, 1
	if len(strides) == 4 {
		sh, sw = strides[hAxis], strides[wAxis]
	}
	if len(dilations) == 4 {
		dh, dw = dilations[hAxis], dilations[wAxis]
	}
	fd := f.Shape().Dimensions
	if fd[2] != x.Shape().Dimensions[cAxis] {
		return nil, fmt.Errorf("filter %s expects %d input channels, input %s has %d", f.Shape(), fd[2], x.Shape(), x.Shape().Dimensions[cAxis])
	}
	if axisOf(in[0]) == cAxis || in[1].pad != nil {
		return nil, errPadded(in[0], "an operand's convolved axis")
	}
	if fd[0] == 1 && fd[1] == 1 && sh == 1 && sw == 1 && padding != "EXPLICIT" {
		k := graph.Reshape(f, fd[2], fd[3])
		out := graph.DotGeneral(x, []int{cAxis}, nil, k, []int{0}, nil) // channels end up last
		if format == "NCHW" {
			out = graph.TransposeAllAxes(out, 0, 3, 1, 2)
		}
		return []*value{padded(out, in[0].pad, axisOf(in[0]))}, nil
	}
	if in[0].pad != nil {
		return nil, errPadded(in[0], "the input of a spatial convolution")
	}
	conv := graph.Convolve(x, f).AxesConfig(graph.ConvolveAxesConfig{
		InputBatch: 0, InputChannels: cAxis, InputSpatial: []int{hAxis, wAxis},
		KernelSpatial: []int{0, 1}, KernelInputChannels: 2, KernelOutputChannels: 3,
		OutputBatch: 0, OutputChannels: cAxis, OutputSpatial: []int{hAxis, wAxis},
	}).StridePerAxis(sh, sw).DilationPerAxis(dh, dw)
	switch padding {
	case "VALID":
		conv = conv.NoPadding()
	case "SAME":
		pads := [][2]int{
			samePadding(x.Shape().Dimensions[hAxis], fd[0], sh, dh),
			samePadding(x.Shape().Dimensions[wAxis], fd[1], sw, dw),
		}
		conv = conv.PaddingPerDim(pads)
	case "EXPLICIT":
		ep, err := n.AttrInts("explicit_paddings")
		if err != nil {
			return nil, err
		}
		if len(ep) != 8 {
			return nil, fmt.Errorf("explicit_paddings needs 8 values, got %v", ep)
		}
		conv = conv.PaddingPerDim([][2]int{{ep[2*hAxis], ep[2*hAxis+1]}, {ep[2*wAxis], ep[2*wAxis+1]}})
	default:
		return nil, fmt.Errorf("unsupported padding %q", padding)
	}
	return []*value{nodeValue(conv.Done())}, nil
}

// samePadding is TF's SAME padding (before, after) for one spatial axis:
// the output has ceil(in/stride) positions, extra padding goes after.
func samePadding(in, k, stride, dilation int) [2]int {
	eff := (k-1)*dilation + 1
	out := (in + stride - 1) / stride
	total := max(0, (out-1)*stride+eff-in)
	return [2]int{total / 2, total - total/2}
}

package tfjs

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gomlx/gomlx/core/tensors"
)

// decodeWeight reads one weight of the manifest from the start of blob
// (little-endian, as TF.js writes it) and returns it with the number of
// bytes it used.
func decodeWeight(w jsonWeight, blob []byte) (*tensors.Tensor, int, error) {
	if len(w.Quantization) > 0 && string(w.Quantization) != "null" {
		return nil, 0, fmt.Errorf("weight %q is quantized (%s): quantized TF.js weights are not supported", w.Name, w.Quantization)
	}
	size := 1
	for _, d := range w.Shape {
		if d < 0 {
			return nil, 0, fmt.Errorf("weight %q has negative dimension in shape %v", w.Name, w.Shape)
		}
		size *= d
	}
	var elemBytes int
	switch w.DType {
	case "float32", "int32":
		elemBytes = 4
	case "bool":
		elemBytes = 1
	default:
		return nil, 0, fmt.Errorf("weight %q has dtype %q: only float32, int32 and bool weights are supported", w.Name, w.DType)
	}
	n := size * elemBytes
	if len(blob) < n {
		return nil, 0, fmt.Errorf("weight %q (%s %v) needs %d bytes but the shards end after %d", w.Name, w.DType, w.Shape, n, len(blob))
	}
	dims := append([]int(nil), w.Shape...)
	switch w.DType {
	case "float32":
		data := make([]float32, size)
		for i := range data {
			data[i] = math.Float32frombits(binary.LittleEndian.Uint32(blob[4*i:]))
		}
		return tensors.FromFlatDataAndDimensions(data, dims...), n, nil
	case "int32":
		data := make([]int32, size)
		for i := range data {
			data[i] = int32(binary.LittleEndian.Uint32(blob[4*i:]))
		}
		return tensors.FromFlatDataAndDimensions(data, dims...), n, nil
	default: // bool
		data := make([]bool, size)
		for i := range data {
			data[i] = blob[i] != 0
		}
		return tensors.FromFlatDataAndDimensions(data, dims...), n, nil
	}
}

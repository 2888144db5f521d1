package neural

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
)

// This file reads safetensors weights (https://huggingface.co/docs/safetensors)
// into float32 on the host. It is written here rather than taken from
// github.com/gomlx/go-huggingface v0.4.0's models/safetensors because that
// package reaches files only through its hub.Repo (its own download, which
// RolePrint does not use: see data/hub), memory-maps the file and slices
// the tensors' byte ranges without checking them against the file's size
// (a truncated or corrupt file panics), and returns tensors in the file's
// dtype on a backend. Here every read is bounded: the header's length is
// checked against the file, every tensor's range lies inside the data
// section, matches its dtype and shape, and is read with ReadAt.

// MaxSafetensorsHeader caps a safetensors header (the format's own
// reference implementation refuses headers over 100 MB).
const MaxSafetensorsHeader = 100 << 20

// stTensor is one tensor of a safetensors file's header.
type stTensor struct {
	DType       string  `json:"dtype"`
	Shape       []int   `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

// safetensorsFile is an open safetensors file and its validated header.
type safetensorsFile struct {
	path    string
	f       *os.File
	data    int64 // offset of the data section
	tensors map[string]stTensor
}

// stElemSize is the byte size of the dtypes read as floats.
var stElemSize = map[string]int64{"F32": 4, "F16": 2, "BF16": 2, "F64": 8}

// stAnyElemSize is the byte size of every dtype the format defines, for
// checking the ranges of tensors that are not read (integer buffers).
var stAnyElemSize = map[string]int64{"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1,
	"U64": 8, "U32": 4, "U16": 2, "U8": 1, "BOOL": 1, "F8_E4M3": 1, "F8_E5M2": 1}

// openSafetensors opens path and validates its header: the length fits
// the file and MaxSafetensorsHeader, the JSON parses, and every tensor's
// byte range is inside the data section and as long as its dtype and
// shape say. Errors name the file (and the tensor).
func openSafetensors(path string) (*safetensorsFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	fail := func(format string, args ...any) (*safetensorsFile, error) {
		f.Close()
		return nil, fmt.Errorf("safetensors %s: %s", path, fmt.Sprintf(format, args...))
	}
	size := st.Size()
	var lenBuf [8]byte
	if _, err := f.ReadAt(lenBuf[:], 0); err != nil {
		return fail("reading the header length: %v (a file of %d bytes; expected at least 8)", err, size)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxSafetensorsHeader || int64(n) > size-8 {
		return fail("header length %d exceeds the file (%d bytes) or the %d-byte limit", n, size, MaxSafetensorsHeader)
	}
	hdr := make([]byte, n)
	if _, err := f.ReadAt(hdr, 8); err != nil {
		return fail("reading the header: %v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return fail("header is not a JSON object: %v", err)
	}
	data := 8 + int64(n)
	s := &safetensorsFile{path: path, f: f, data: data, tensors: map[string]stTensor{}}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var t stTensor
		if err := json.Unmarshal(msg, &t); err != nil {
			return fail("tensor %q: %v", name, err)
		}
		es, ok := stAnyElemSize[t.DType]
		if !ok {
			return fail("tensor %q: unknown dtype %q", name, t.DType)
		}
		count := int64(1)
		for _, d := range t.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt64/8/int64(d)) {
				return fail("tensor %q: invalid shape %v", name, t.Shape)
			}
			count *= int64(d)
		}
		if len(t.DataOffsets) != 2 || t.DataOffsets[0] < 0 || t.DataOffsets[1] < t.DataOffsets[0] || t.DataOffsets[1] > size-data {
			return fail("tensor %q: byte range %v is outside the data section (%d bytes)", name, t.DataOffsets, size-data)
		}
		if got := t.DataOffsets[1] - t.DataOffsets[0]; got != count*es {
			return fail("tensor %q: %s %v needs %d bytes, the file gives it %d", name, t.DType, t.Shape, count*es, got)
		}
		s.tensors[name] = t
	}
	return s, nil
}

// Close closes the file.
func (s *safetensorsFile) Close() error { return s.f.Close() }

// filePath implements weightFile.
func (s *safetensorsFile) filePath() string { return s.path }

// shape implements weightFile.
func (s *safetensorsFile) shape(name string) ([]int, bool) {
	t, ok := s.tensors[name]
	return t.Shape, ok
}

// names returns the tensor names, sorted.
func (s *safetensorsFile) names() []string {
	out := make([]string, 0, len(s.tensors))
	for n := range s.tensors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// float32s reads tensor name as float32 (F32, F16, BF16 and F64 are
// converted exactly, F64 rounded) and checks its shape against want (nil:
// any shape). It returns the data and the shape.
func (s *safetensorsFile) float32s(name string, want []int) ([]float32, []int, error) {
	t, ok := s.tensors[name]
	if !ok {
		return nil, nil, fmt.Errorf("safetensors %s: no tensor %q", s.path, name)
	}
	if want != nil && !slices.Equal(t.Shape, want) {
		return nil, nil, fmt.Errorf("safetensors %s: tensor %q has shape %v; the configuration implies %v", s.path, name, t.Shape, want)
	}
	if _, ok := stElemSize[t.DType]; !ok {
		return nil, nil, fmt.Errorf("safetensors %s: tensor %q is %s; expected a float dtype (F32, F16, BF16 or F64)", s.path, name, t.DType)
	}
	buf := make([]byte, t.DataOffsets[1]-t.DataOffsets[0])
	if _, err := s.f.ReadAt(buf, s.data+t.DataOffsets[0]); err != nil && !(errors.Is(err, io.EOF) && len(buf) == 0) {
		return nil, nil, fmt.Errorf("safetensors %s: tensor %q: %w", s.path, name, err)
	}
	out := decodeFloats(t.DType, buf)
	return out, slices.Clone(t.Shape), nil
}

// decodeFloats converts little-endian values of a float dtype (F32, F64,
// BF16, F16; stElemSize) to float32: exact, F64 rounded.
func decodeFloats(dtype string, buf []byte) []float32 {
	out := make([]float32, int64(len(buf))/stElemSize[dtype])
	le := binary.LittleEndian
	for i := range out {
		switch dtype {
		case "F32":
			out[i] = math.Float32frombits(le.Uint32(buf[4*i:]))
		case "F64":
			out[i] = float32(math.Float64frombits(le.Uint64(buf[8*i:])))
		case "BF16":
			out[i] = math.Float32frombits(uint32(le.Uint16(buf[2*i:])) << 16)
		case "F16":
			out[i] = float16ToFloat32(le.Uint16(buf[2*i:]))
		}
	}
	return out
}

// float16ToFloat32 converts an IEEE 754 half-precision value exactly
// (subnormals, infinities and NaN included).
func float16ToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac · 2^-24
		v := float32(frac) * float32(math.Ldexp(1, -24))
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

package tfjs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gomlx/compute/dtypes"
)

// AttrInt returns the integer attribute name, or def when the node does
// not have it.
func (n *Node) AttrInt(name string, def int) (int, error) {
	a := n.Attrs[name]
	if a == nil || len(a.I) == 0 {
		return def, nil
	}
	v, err := jsonInt(a.I)
	if err != nil {
		return 0, fmt.Errorf("attribute %s: %w", name, err)
	}
	return v, nil
}

// AttrBool returns the boolean attribute name, or def.
func (n *Node) AttrBool(name string, def bool) bool {
	a := n.Attrs[name]
	if a == nil || a.B == nil {
		return def
	}
	return *a.B
}

// AttrString returns the string attribute name, or def. TF.js writes
// strings either as base64 text or as a list of bytes; both are read.
func (n *Node) AttrString(name, def string) (string, error) {
	a := n.Attrs[name]
	if a == nil || len(a.S) == 0 {
		return def, nil
	}
	s, err := jsonBytes(a.S)
	if err != nil {
		return "", fmt.Errorf("attribute %s: %w", name, err)
	}
	return s, nil
}

// AttrInts returns the integer-list attribute name (nil when absent).
func (n *Node) AttrInts(name string) ([]int, error) {
	a := n.Attrs[name]
	if a == nil || a.List == nil {
		return nil, nil
	}
	out := make([]int, len(a.List.I))
	for i, raw := range a.List.I {
		v, err := jsonInt(raw)
		if err != nil {
			return nil, fmt.Errorf("attribute %s[%d]: %w", name, i, err)
		}
		out[i] = v
	}
	return out, nil
}

// AttrDType returns the data-type attribute name mapped to the dtype the
// converter uses for it, following TF.js: every integer type becomes
// Int32, float16/float64 become Float32. ok is false when absent.
func (n *Node) AttrDType(name string) (dt dtypes.DType, ok bool, err error) {
	a := n.Attrs[name]
	if a == nil || len(a.Type) == 0 {
		return dtypes.InvalidDType, false, nil
	}
	dt, err = tfDType(a.Type)
	if err != nil {
		return dtypes.InvalidDType, false, fmt.Errorf("attribute %s: %w", name, err)
	}
	return dt, true, nil
}

// AttrShape returns the shape attribute name with -1 for unknown
// dimensions; ok is false when absent or of unknown rank.
func (n *Node) AttrShape(name string) (dims []int, ok bool, err error) {
	a := n.Attrs[name]
	if a == nil || a.Shape == nil || a.Shape.UnknownRank {
		return nil, false, nil
	}
	dims = make([]int, len(a.Shape.Dim))
	for i, d := range a.Shape.Dim {
		if len(d.Size) == 0 {
			dims[i] = 0
			continue
		}
		if dims[i], err = jsonInt(d.Size); err != nil {
			return nil, false, fmt.Errorf("attribute %s dim %d: %w", name, i, err)
		}
	}
	return dims, true, nil
}

// jsonInt reads an int64 that TF.js writes as a JSON string or number.
func jsonInt(raw json.RawMessage) (int, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		v, err := strconv.ParseInt(s, 10, 64)
		return int(v), err
	}
	var v int64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("not an integer: %s", raw)
	}
	return int(v), nil
}

// jsonBytes reads bytes written as base64 text or as a list of numbers.
func jsonBytes(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", fmt.Errorf("bad base64 string %q: %w", s, err)
		}
		return string(b), nil
	}
	var list []byte
	var ints []int
	if err := json.Unmarshal(raw, &ints); err != nil {
		return "", fmt.Errorf("not a string: %s", raw)
	}
	for _, v := range ints {
		list = append(list, byte(v))
	}
	return string(list), nil
}

// tfDType maps a TensorFlow DataType (enum number or "DT_..." name) to the
// dtype TF.js computes with.
func tfDType(raw json.RawMessage) (dtypes.DType, error) {
	var code int
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		name = strings.TrimPrefix(strings.ToUpper(name), "DT_")
	} else if err := json.Unmarshal(raw, &code); err != nil {
		return dtypes.InvalidDType, fmt.Errorf("not a data type: %s", raw)
	}
	switch {
	case code == 1 || code == 2 || code == 19 || name == "FLOAT" || name == "DOUBLE" || name == "HALF":
		return dtypes.Float32, nil
	case code == 3 || code == 4 || code == 5 || code == 6 || code == 9 || code == 17 || code == 22 || code == 23 ||
		name == "INT32" || name == "INT64" || name == "INT16" || name == "INT8" ||
		name == "UINT8" || name == "UINT16" || name == "UINT32" || name == "UINT64":
		return dtypes.Int32, nil
	case code == 10 || name == "BOOL":
		return dtypes.Bool, nil
	}
	return dtypes.InvalidDType, fmt.Errorf("unsupported data type %s", raw)
}

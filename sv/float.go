package sv

import (
	"math"
	"strconv"
)

// Float is a float64 that encodes NaN and ±Inf as JSON null (JSON has no
// NaN), so a metric that is undefined — an AUC of a split without
// negatives, a metric of an empty split — stays readable. Null decodes
// back to NaN.
type Float float64

// MarshalJSON writes the number, or null when it is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, or NaN for null.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*f = Float(x)
	return nil
}

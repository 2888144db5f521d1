package stats

import (
	"math"
	"strconv"
)

// Float is a float64 that encodes NaN and ±Inf as JSON null (JSON has no
// NaN), so a value that is undefined — an AUC of a split without
// negatives, a metric of an empty split, a role without real lines, a
// pitch without a voiced frame — stays readable. Null decodes back to
// NaN. It is the one NaN-as-null type of the repository; MarshalStruct
// applies it to the plain float fields of a struct.
type Float float64

// NaN returns the undefined Float.
func NaN() Float { return Float(math.NaN()) }

// Defined reports whether f is a finite number (not NaN, not ±Inf).
func (f Float) Defined() bool {
	x := float64(f)
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

// MarshalJSON writes the number (shortest representation), or null when
// it is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	return appendJSON(nil, float64(f), 64), nil
}

// appendJSON appends x as Float writes it, in the shortest form that
// round-trips at bits (32 or 64) precision.
func appendJSON(b []byte, x float64, bits int) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, x, 'g', -1, bits)
}

// UnmarshalJSON reads a number, or NaN for null.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = NaN()
		return nil
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*f = Float(x)
	return nil
}

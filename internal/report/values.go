package report

import (
	"math"
	"strconv"
)

// Values is one series of a chart or one column of numbers: a value per
// point, NaN where there is none. It encodes as a JSON array with null for
// NaN (a gap in a chart's line), each value rounded to three decimals, which
// is a microsecond for milliseconds and keeps pages small and golden files
// stable.
type Values []float64

// MarshalJSON implements json.Marshaler.
func (v Values) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("[]"), nil
	}
	b := make([]byte, 0, 2+8*len(v))
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNumber(b, x)
	}
	return append(b, ']'), nil
}

// A Number is a float64 that encodes as JSON like an element of Values.
type Number float64

// MarshalJSON implements json.Marshaler.
func (n Number) MarshalJSON() ([]byte, error) {
	return appendNumber(nil, float64(n)), nil
}

func appendNumber(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	r := round3(x)
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.AppendFloat(b, r, 'f', -1, 64)
}

// round3 rounds x to three decimals.
func round3(x float64) float64 {
	return math.Round(x*1000) / 1000
}

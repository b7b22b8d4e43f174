package expr

import "reflect"

// Equal reports whether two values from expressions are the same: numbers
// compare by value whatever their Go type, so that an id captured as an int
// matches one written as 7.0.
func Equal(a, b any) bool {
	if ia, ok := Integer(a); ok {
		if ib, ok := Integer(b); ok {
			return ia == ib
		}
	}
	if fa, ok := Number(a); ok {
		fb, ok := Number(b)
		return ok && fa == fb
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || ta == nil {
		return ta == tb
	}
	if !ta.Comparable() {
		return reflect.DeepEqual(a, b)
	}
	return a == b
}

// Number returns v as a float64 if it is a number of any of the types
// expressions, JSON and YAML give.
func Number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// Integer returns v as an int64 if it is an integer.
func Integer(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}

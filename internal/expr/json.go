package expr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// decodeJSON decodes b into maps, slices, strings, booleans, nil and
// numbers: an int when the number is an integer that fits, a float64
// otherwise, so that ids keep every digit.
func DecodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return Numbers(v), nil
}

// numbers replaces the json.Numbers in v.
func Numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return parseNumber(string(x))
	case map[string]any:
		for k, e := range x {
			x[k] = Numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = Numbers(e)
		}
	}
	return v
}

func parseNumber(s string) any {
	if n, err := strconv.ParseInt(s, 10, 0); err == nil {
		return int(n)
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// gjsonValue converts a gjson result to the value decodeJSON would give.
func GJSONValue(r gjson.Result) any {
	switch r.Type {
	case gjson.String:
		return r.Str
	case gjson.Number:
		return parseNumber(r.Raw)
	case gjson.True:
		return true
	case gjson.False:
		return false
	case gjson.JSON:
		v, err := DecodeJSON([]byte(r.Raw))
		if err != nil {
			return nil
		}
		return v
	}
	return nil
}

// appendJSON appends v encoded as JSON.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return AppendJSONString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		return appendFloat(b, x)
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, enc...), nil
}

// appendFloat appends f without an exponent for integers, so that an id
// read as 1e6 is written 1000000.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if f != f || f > 1e308 || f < -1e308 {
		return b, fmt.Errorf("%v is not a JSON number", f)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64), nil
}

// appendJSONString appends s as a JSON string.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, `\ufffd`...)
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

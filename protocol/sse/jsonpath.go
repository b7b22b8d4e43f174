package sse

import (
	"strconv"
	"strings"
	"unsafe"
)

// jsonNumber finds the number at path in the JSON document data: keys of
// nested objects and indexes of arrays separated by dots, as in "sent_at",
// "meta.ts" or "items.0.ts". It reports the number exactly as an integer
// when it is one (isInt), and as a float in any case.
//
// An empty path means the whole document, which must then be nothing but
// the number.
//
// It scans without recursion and without allocating, so that reading a
// send time from every event keeps the stack of a parked subscriber
// small; a general JSON library would grow it for every stream. Keys are
// compared as written, escapes and all. Malformed JSON finds nothing.
func jsonNumber(data []byte, path string) (i int64, f float64, isInt, ok bool) {
	p := skipSpace(data, 0)
	for rest, more := path, path != ""; more; {
		var seg string
		seg, rest, more = strings.Cut(rest, ".")
		if p >= len(data) {
			return 0, 0, false, false
		}
		switch data[p] {
		case '{':
			p = findKey(data, p, seg)
		case '[':
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 {
				return 0, 0, false, false
			}
			p = findIndex(data, p, n)
		default:
			return 0, 0, false, false
		}
		if p < 0 {
			return 0, 0, false, false
		}
	}
	end := p
	for end < len(data) && strings.IndexByte("+-0123456789.eE", data[end]) >= 0 {
		end++
	}
	if end == p || (path == "" && skipSpace(data, end) != len(data)) {
		return 0, 0, false, false
	}
	num := unsafe.String(&data[p], end-p)
	if !strings.ContainsAny(num, ".eE") {
		if i, err := strconv.ParseInt(num, 10, 64); err == nil {
			return i, float64(i), true, true
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, 0, false, false
	}
	return 0, f, false, true
}

// findKey returns the start of the value of key in the object at p, or -1.
func findKey(data []byte, p int, key string) int {
	p = skipSpace(data, p+1)
	for p < len(data) && data[p] == '"' {
		end := skipString(data, p)
		if end < 0 {
			return -1
		}
		match := unsafe.String(unsafe.SliceData(data[p+1:]), end-p-2) == key
		p = skipSpace(data, end)
		if p >= len(data) || data[p] != ':' {
			return -1
		}
		p = skipSpace(data, p+1)
		if match {
			return p
		}
		if p = skipItem(data, p); p < 0 {
			return -1
		}
	}
	return -1
}

// findIndex returns the start of element n of the array at p, or -1.
func findIndex(data []byte, p, n int) int {
	p = skipSpace(data, p+1)
	for k := 0; p < len(data) && data[p] != ']'; k++ {
		if k == n {
			return p
		}
		if p = skipItem(data, p); p < 0 {
			return -1
		}
	}
	return -1
}

// skipItem returns the start of the member or element after the value at
// p, past the comma that ends it, or -1 if no comma does.
func skipItem(data []byte, p int) int {
	if p = skipValue(data, p); p < 0 {
		return -1
	}
	p = skipSpace(data, p)
	if p >= len(data) || data[p] != ',' {
		return -1
	}
	return skipSpace(data, p+1)
}

// skipValue returns the end of the value at p, or -1: nested objects and
// arrays are skipped by counting brackets, not by recursion.
func skipValue(data []byte, p int) int {
	depth := 0
	for p < len(data) {
		switch c := data[p]; c {
		case '"':
			if p = skipString(data, p); p < 0 {
				return -1
			}
			if depth == 0 {
				return p
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return p
			}
			depth--
			if depth == 0 {
				return p + 1
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return p
			}
		}
		p++
	}
	if depth == 0 {
		return p
	}
	return -1
}

// skipString returns the end of the string whose quote is at p, or -1.
func skipString(data []byte, p int) int {
	for p++; p < len(data); p++ {
		switch data[p] {
		case '\\':
			p++
		case '"':
			return p + 1
		}
	}
	return -1
}

func skipSpace(data []byte, p int) int {
	for p < len(data) && (data[p] == ' ' || data[p] == '\t' || data[p] == '\r' || data[p] == '\n') {
		p++
	}
	return p
}

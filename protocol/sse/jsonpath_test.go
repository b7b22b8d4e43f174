package sse

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestJSONNumber(t *testing.T) {
	doc := `{"a":1, "s":"x\"}{", "n":{"b":[10, {"c":-2.5e3}], "z":null}, "big":1700000000123456789, "t":true}`
	for path, want := range map[string]float64{"a": 1, "n.b.0": 10, "n.b.1.c": -2500, "big": 1700000000123456789} {
		_, f, _, ok := jsonNumber([]byte(doc), path)
		if !ok || f != want {
			t.Errorf("%s: %v %v, want %v", path, f, ok, want)
		}
	}
	for _, path := range []string{"s", "n", "n.z", "n.b.2", "t", "missing", "a.b", "n.b.x", ""} {
		if _, _, _, ok := jsonNumber([]byte(doc), path); ok {
			t.Errorf("%s: found a number", path)
		}
	}
	if i, _, isInt, ok := jsonNumber([]byte(" 42 "), ""); !ok || !isInt || i != 42 {
		t.Errorf("bare number: %v %v %v", i, isInt, ok)
	}
	data := []byte(doc)
	if a := testing.AllocsPerRun(100, func() { jsonNumber(data, "n.b.1.c") }); a != 0 {
		t.Errorf("%.1f allocations", a)
	}
}

// FuzzJSONNumber checks jsonNumber against gjson on valid JSON documents,
// and that no input makes it panic.
func FuzzJSONNumber(f *testing.F) {
	f.Add([]byte(`{"sent_at":1700000000000000000,"seq":1}`), "sent_at")
	f.Add([]byte(`{"data":{"n":3},"sent_at":1.5}`), "data.n")
	f.Add([]byte(`[1,[2,{"x":3}]]`), "1.1.x")
	f.Fuzz(func(t *testing.T, doc []byte, path string) {
		_, got, _, ok := jsonNumber(doc, path)
		if !json.Valid(doc) || path == "" || !gjson.ValidBytes(doc) {
			return
		}
		if d := strings.TrimSpace(string(doc)); d[0] != '{' && d[0] != '[' {
			return // gjson reads paths into scalars in ways of its own
		}
		for _, c := range path {
			if strings.ContainsRune("{}[],:%~", c) || c == '*' || c == '?' || c == '\\' || c == '#' || c == '@' || c == '|' || c == '!' || c == '=' || c == '"' {
				return // gjson syntax beyond keys and indexes
			}
		}
		v := gjson.GetBytes(doc, path)
		want, wok := v.Float(), v.Type == gjson.Number
		if math.IsInf(want, 0) {
			return // out of range: jsonNumber finds nothing, gjson infinity
		}
		if ok != wok || ok && got != want {
			t.Fatalf("%s in %s: got %v %v, gjson %v %v", path, doc, got, ok, want, wok)
		}
	})
}

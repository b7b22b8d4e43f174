package scenario

import (
	"testing"
	"time"

	"github.com/expr-lang/expr/types"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
)

func testScope() *expr.Scope {
	return &expr.Scope{Types: types.Map{"id": types.Any, "name": types.Any, "n": types.Any, "folders": poolType, expr.NameUser: types.Int, expr.NameIter: types.Int}}
}

// Simple JSON paths are read straight from the body; other uses of json
// decode it. Both give the same values.
func TestJSONPaths(t *testing.T) {
	f := expr.NewFuncs(nil)
	sc := testScope().WithResponse()
	body := []byte(`{"id": 9007199254740993, "items": [{"id": 1, "a.b": "x"}], "f": 1.5}`)
	for src, want := range map[string]any{
		"json.id":              9007199254740993,
		"json.items[0].id":     1,
		`json.items[0]["a.b"]`: "x",
		"json.f":               1.5,
		"json.missing":         nil,
		"len(json.items)":      1,
		"json.items[-1].id":    1,
		"len(json)":            3,
	} {
		x, err := f.Compile(src, sc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		st := &step{kind: kindRequest, capture: []assign{{name: "v", x: x}}}
		st.needs()
		u := &vuser{Evaluator: expr.Evaluator{Env: map[string]any{}}}
		var smp metrics.Sample
		u.setResponse(st, &smp, &httpc.Response{Status: 200, Body: body})
		got, err := u.Eval(x)
		if err != nil || got != want {
			t.Errorf("%s: got %v (%T), %v; want %v", src, got, got, err, want)
		}
		if src == "len(json)" {
			if !st.needJSON || len(st.slots) != 0 {
				t.Errorf("%s: slots %v, decode %v; want the body decoded", src, st.slots, st.needJSON)
			}
		} else if len(st.slots) != 1 || st.needJSON {
			t.Errorf("%s: slots %v, decode %v; want one slot and no decoding", src, st.slots, st.needJSON)
		}
	}
}

func TestPool(t *testing.T) {
	p := newPool("p", []any{1})
	p.Add("a")
	p.Add(2.0)
	if !p.Remove(2) || p.Remove(3) || !p.Remove("a") || p.Len() != 1 {
		t.Errorf("pool %v", p.Values())
	}
	if v, ok := p.Pick(); !ok || v != 1 {
		t.Errorf("pick %v", v)
	}
}

func TestDataSources(t *testing.T) {
	files := map[string]string{
		"a.csv":   "email, password\na@x,1\nb@x,2\n",
		"a.jsonl": "{\"id\": 1}\n\n[2]\n\"three\"\n",
	}
	read := func(name string) ([]byte, error) { return []byte(files[name]), nil }
	csv, err := compileData("a", Data{CSV: "a.csv", Order: Sequential}, read)
	if err != nil {
		t.Fatal(err)
	}
	if a, b, c := csv.pick(nil), csv.pick(nil), csv.pick(nil); a.(map[string]any)["email"] != "a@x" || b.(map[string]any)["password"] != "2" || c.(map[string]any)["email"] != "a@x" {
		t.Errorf("csv rows %v %v %v", a, b, c)
	}
	jl, err := compileData("j", Data{JSONL: "a.jsonl", Order: Unique}, read)
	if err != nil || jl.n != 3 {
		t.Fatalf("jsonl: %v, %d items", err, jl.n)
	}
	if v := jl.forUser(1, 1).pick(nil); v != "three" {
		t.Errorf("user 1 at offset 1 got %v", v)
	}
	r, err := compileData("r", Data{Range: &Range{From: 10, To: 20, Step: 5, Format: "f_%d"}}, read)
	if err != nil || r.n != 3 || r.at(2) != "f_20" {
		t.Errorf("range: %v, %d items", err, r.n)
	}
	for _, d := range []Data{{}, {List: []any{}}, {Range: &Range{From: 2, To: 1}}, {Range: &Range{To: 1, Format: "x"}}, {List: []any{1}, CSV: "a.csv"}, {List: []any{1}, Order: "shuffled"}} {
		if _, err := compileData("bad", d, read); err == nil {
			t.Errorf("%+v compiled", d)
		}
	}
}

func TestLoadOverrides(t *testing.T) {
	c := Users(100, time.Minute, 10*time.Minute)
	l, err := withUsers(c, 10)
	if err != nil || l.PeakUsers() != 10 {
		t.Errorf("withUsers: %v, %d users", err, l.PeakUsers())
	}
	l, err = scaleTime(c, 0.1)
	if err != nil || l.Duration() != time.Minute || l.(executor.Closed).Stages[0].Duration != 6*time.Second {
		t.Errorf("scaleTime: %v, %v", err, l)
	}
	o, err := withRate(Rate(100, 0, time.Minute, 0), 1000)
	if err != nil || o.(executor.Open).StartRate != 1000 || o.(executor.Open).MaxUsers != 1000 {
		t.Errorf("withRate: %v, %+v", err, o)
	}
	if _, err := withRate(c, 5); err == nil {
		t.Error("--rate applied to the closed model")
	}
	if _, err := withThink(Bursts(time.Second, 5, time.Minute), Pause{Min: time.Second}); err == nil {
		t.Error("think applied to bursts")
	}
	b, _ := scaleTime(Bursts(10*time.Minute, 100, 30*time.Minute), 0.001)
	if got := b.(executor.Burst); got.Every != 600*time.Millisecond || got.Bursts() != 3 {
		t.Errorf("scaled bursts %+v", got)
	}
}

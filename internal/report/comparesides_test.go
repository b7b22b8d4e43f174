package report

import (
	"strings"
	"testing"
)

// The page of a comparison of sides of several runs describes each side as
// the terminal table does: all its files and the requests of all its runs,
// not only its first run's.
func TestCompareDataDescribesWholeSides(t *testing.T) {
	base, nw := readFixture(t, "base.json"), readFixture(t, "new.json")
	c, err := Compare([]Labeled{
		{Label: "base-1 … base-2", File: "base-1.json", Result: base, Repeats: []Labeled{{Label: "base-2", File: "base-2.json", Result: base}}},
		{Label: "new-1 … new-2", File: "new-1.json", Result: nw, Repeats: []Labeled{{Label: "new-2", File: "new-2.json", Result: nw}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := NewCompareData(c, nil)
	for i, want := range []struct {
		file     string
		requests int64
	}{{"base-1.json, base-2.json", 2 * base.Totals.Requests}, {"new-1.json, new-2.json", 2 * nw.Totals.Requests}} {
		if got := d.Runs[i]; got.File != want.file || got.Requests != want.requests {
			t.Errorf("side %d: file %q, %d requests; want %q, %d", i+1, got.File, got.Requests, want.file, want.requests)
		}
	}
}

// The header of a comparison of sides counts the sides and their runs, and
// says each change is against the side before it.
func TestCompareHeaderCountsSides(t *testing.T) {
	base, nw := readFixture(t, "base.json"), readFixture(t, "new.json")
	sides, err := Compare([]Labeled{
		{Label: "base-1 … base-2", File: "base-1.json", Result: base, Repeats: []Labeled{{Label: "base-2", File: "base-2.json", Result: base}}},
		{Label: "new-1", File: "new-1.json", Result: nw},
	})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Compare([]Labeled{{Label: "base", File: "base.json", Result: base}, {Label: "new", File: "new.json", Result: nw}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    *Comparison
		want string
	}{
		{sides, "2 sides of 3 runs · each change is against the side before it"},
		{runs, "2 runs · each change is against the run before it"},
	} {
		var table, md strings.Builder
		CompareTable(&table, tc.c)
		CompareMarkdown(&md, tc.c)
		for _, out := range []string{table.String(), md.String()} {
			if first := strings.SplitN(strings.TrimSpace(out), "\n", 2)[0]; !strings.Contains(first, tc.want) {
				t.Errorf("header %q, want it to say %q", first, tc.want)
			}
		}
	}
}

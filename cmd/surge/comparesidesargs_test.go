package main

import (
	"reflect"
	"strings"
	"testing"
)

// compareSides groups the arguments cobra passes after the first -- (dash
// is its position) into sides, and a side without files is bad input
// wherever it is: first, last, or between two -- (a -- -- b).
func TestCompareSidesGrouping(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		dash    int
		want    [][]string
		badSide string
	}{
		{args: []string{"a", "b"}, dash: -1, want: [][]string{{"a"}, {"b"}}},
		{args: []string{"a1", "a2", "b1"}, dash: 2, want: [][]string{{"a1", "a2"}, {"b1"}}},
		{args: []string{"a", "b", "--", "c"}, dash: 1, want: [][]string{{"a"}, {"b"}, {"c"}}},
		{args: []string{"b"}, dash: 0, badSide: "side 1 "},
		{args: []string{"a"}, dash: 1, badSide: "side 2 "},
		{args: []string{"a", "--", "b"}, dash: 1, badSide: "side 2 "},
		{args: []string{"a", "b", "--"}, dash: 1, badSide: "side 3 "},
	} {
		got, err := compareSides(tc.args, tc.dash)
		if tc.badSide != "" {
			if err == nil || !strings.Contains(err.Error(), tc.badSide) {
				t.Errorf("compareSides(%q, %d) = %q, %v; want an error naming %q", tc.args, tc.dash, got, err, tc.badSide)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("compareSides(%q, %d) = %q, %v; want %q", tc.args, tc.dash, got, err, tc.want)
		}
	}
}

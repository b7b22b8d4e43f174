// Package suggest finds the likely intended name among the known ones, for
// messages that say "did you mean X?".
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the candidate closest to name, if it is close enough to
// be a likely typo, or "".
func Closest(name string, candidates []string) string {
	best, bestD := "", 0
	for _, c := range candidates {
		d := distance(strings.ToLower(name), strings.ToLower(c))
		if d <= max(1, len(c)/3) && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean returns "did you mean X?" for the candidate closest to name, or
// "".
func DidYouMean(name string, candidates []string) string {
	if s := Closest(name, candidates); s != "" {
		return fmt.Sprintf("did you mean %s?", s)
	}
	return ""
}

// distance is the Levenshtein edit distance of a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

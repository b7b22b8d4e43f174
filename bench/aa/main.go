// Command aa counts how often surge compare marks a change between pairs of
// results: A/A pairs (the same system twice: every mark is a false flag)
// and A/B pairs (a known change: the marks of the changed metric are the
// catches). bench/compare-aa.sh runs the pairs; this prints the table.
//
//	go run ./bench/aa -label nginx a1.json b1.json a2.json b2.json ...
//
// With -runs K, K consecutive pairs make one comparison of K runs per side
// (surge compare a1 … aK -- b1 … bK), disjoint from the next.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
)

func main() {
	label := flag.String("label", "", "the name of the row group")
	runs := flag.Int("runs", 1, "runs per side: this many consecutive pairs make one comparison")
	show := flag.String("show", "", "print each comparison's row of this metric (values, change, noise, verdict) on stderr")
	flag.Parse()
	files := flag.Args()
	if len(files) < 2 || len(files)%2 != 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "aa: give pairs of result files: a1 b1 a2 b2 ...")
		os.Exit(2)
	}
	read := func(p string) report.Labeled {
		r, err := result.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return report.Labeled{Label: report.LabelOf(p), File: p, Result: r}
	}
	flagged := map[string][2]int{}   // metric: worse, better
	ratios := map[string][]float64{} // metric: B's value over A's
	comparisons := 0
	for i := 0; i+2**runs <= len(files); i += 2 * *runs {
		a, b := read(files[i]), read(files[i+1])
		for k := 1; k < *runs; k++ {
			a.Repeats = append(a.Repeats, read(files[i+2*k]))
			b.Repeats = append(b.Repeats, read(files[i+2*k+1]))
		}
		c, err := report.Compare([]report.Labeled{a, b})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		comparisons++
		s, _ := c.Section("Total")
		for _, r := range s.Rows {
			n := flagged[r.Metric]
			switch r.Changes[0].Verdict {
			case report.Worse:
				n[0]++
			case report.Better:
				n[1]++
			}
			flagged[r.Metric] = n
			if r.Metric == *show {
				ch := r.Changes[0]
				fmt.Fprintf(os.Stderr, "%s vs %s: %s → %s, %s, noise %s: %s\n", a.Label, b.Label, r.Text[0], r.Text[1], ch.Text, ch.NoiseText, ch.Verdict)
			}
			if r.Values[0] > 0 && !math.IsNaN(r.Values[1]) {
				ratios[r.Metric] = append(ratios[r.Metric], r.Values[1]/r.Values[0])
			}
		}
	}
	median := func(key string) string {
		xs := ratios[key]
		if len(xs) == 0 {
			return "—"
		}
		sort.Float64s(xs)
		return fmt.Sprintf("%.2f", xs[len(xs)/2])
	}
	what := "pairs"
	if *runs > 1 {
		what = fmt.Sprintf("comparisons of %d runs per side", *runs)
	}
	fmt.Printf("| %s (%d %s) | worse | better | flagged | median B/A |\n|---|---|---|---|---|\n", *label, comparisons, what)
	row := func(key string) {
		n := flagged[key]
		fmt.Printf("| %s | %d | %d | %.0f%% | %s |\n", key, n[0], n[1], 100*float64(n[0]+n[1])/float64(comparisons), median(key))
	}
	for _, m := range report.Metrics {
		row(m.Key)
	}
	for _, m := range report.RunMetrics {
		row(m.Key)
	}
}

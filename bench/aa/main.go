// Command aa counts how often surge compare marks a change between pairs of
// results: A/A pairs (the same system twice: every mark is a false flag)
// and A/B pairs (a known change: the marks of the changed metric are the
// catches). bench/compare-aa.sh runs the pairs; this prints the table.
//
//	go run ./bench/aa -label nginx a1.json b1.json a2.json b2.json ...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
)

func main() {
	label := flag.String("label", "", "the name of the row group")
	flag.Parse()
	files := flag.Args()
	if len(files) < 2 || len(files)%2 != 0 {
		fmt.Fprintln(os.Stderr, "aa: give pairs of result files: a1 b1 a2 b2 ...")
		os.Exit(2)
	}
	flagged := map[string][2]int{} // metric: worse, better
	pairs := 0
	for i := 0; i < len(files); i += 2 {
		a, err := result.ReadFile(files[i])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b, err := result.ReadFile(files[i+1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		c, err := report.Compare([]report.Labeled{{Label: "a", Result: a}, {Label: "b", Result: b}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pairs++
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
		}
	}
	fmt.Printf("| %s (%d pairs) | worse | better | flagged |\n|---|---|---|---|\n", *label, pairs)
	for _, m := range report.Metrics {
		n := flagged[m.Key]
		fmt.Printf("| %s | %d | %d | %.0f%% |\n", m.Key, n[0], n[1], 100*float64(n[0]+n[1])/float64(pairs))
	}
	for _, m := range report.RunMetrics {
		n := flagged[m.Key]
		fmt.Printf("| %s | %d | %d | %.0f%% |\n", m.Key, n[0], n[1], 100*float64(n[0]+n[1])/float64(pairs))
	}
}

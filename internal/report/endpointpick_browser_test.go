package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/surge-load/surge/internal/browsertest"
)

// manyEndpoints is a run of twelve endpoints of which only the least busy,
// the last, fails (half its requests answered 503); the busiest is the
// eleventh, so that colours by position would give it the first one's.
var manyEndpoints = func() synth {
	s := synth{seed: 5, seconds: 20, endpointPoints: true}
	for i := range 11 {
		rps := float64(200 - 10*i)
		if i == 10 {
			rps = 300
		}
		s.endpoints = append(s.endpoints, synthEndpoint{name: fmt.Sprintf("GET /ok/%02d", i), rps: rps, medianMs: 10, sigma: 0.2})
	}
	s.endpoints = append(s.endpoints, synthEndpoint{name: "GET /broken", rps: 5, medianMs: 10, sigma: 0.2, failRate: 0.5})
	return s
}()

// Of many endpoints, the report's charts by endpoint draw at first the one
// that failed (however quiet), so that the failures chart of a run with
// failures is never a flat line at zero, and the endpoints drawn at first
// each have a colour of their own.
func TestEndpointsDrawnFirstIncludeFailingOnesInDistinctColours(t *testing.T) {
	browsertest.Require(t)
	path := filepath.Join(t.TempDir(), "many.html")
	if err := WriteHTML(path, manyEndpoints.result()); err != nil {
		t.Fatal(err)
	}
	browser := browsertest.Start(t, 60*time.Second)
	tab, closeTab := chromedp.NewContext(browser)
	defer closeTab()
	type pick struct {
		Name   string `json:"name"`
		Colour string `json:"colour"`
	}
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatal(err)
	}
	ready, err := chromedp.Run(tab, chromedp.Poll[string](`document.body.getAttribute("data-ready")`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || ready != "1" {
		t.Fatalf("page not drawn: ready %q, %v", ready, err)
	}
	picked, err := chromedp.Run(tab, chromedp.Evaluate[[]pick](`[...document.querySelectorAll("fieldset.endpoint-pick label[data-endpoint]")]
	  .filter(l => l.querySelector("input").checked)
	  .map(l => ({name: l.dataset.endpoint, colour: l.querySelector(".swatch").style.background}))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(picked) != 5 {
		t.Fatalf("%d endpoints drawn at first, want 5: %v", len(picked), picked)
	}
	if !slices.ContainsFunc(picked, func(p pick) bool { return p.Name == "GET /broken" }) {
		t.Errorf("the failing endpoint is not drawn at first: %v", picked)
	}
	seen := map[string]string{}
	for _, p := range picked {
		if other, ok := seen[p.Colour]; ok {
			t.Errorf("%s and %s are drawn in the same colour %s", other, p.Name, p.Colour)
		}
		seen[p.Colour] = p.Name
	}
}

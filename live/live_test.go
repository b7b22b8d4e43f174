package live_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/browsertest"
	"github.com/surge-load/surge/live"
	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/result"
)

// running starts a 60 s open-model run at 40/s against a test server with
// the live server on a loopback port, and returns the server and the
// channel the result arrives on.
func running(t *testing.T) (*live.Server, <-chan *result.Result) {
	t.Helper()
	var seen atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		_, _ = io.WriteString(w, "ok\n")
	}))
	t.Cleanup(target.Close)
	load := executor.Open{StartRate: 40, Stages: []executor.Stage{{Duration: time.Minute, Target: 40}}, MaxUsers: 20, Grace: 2 * time.Second}
	plan, err := surge.SingleURL(surge.Request{URL: target.URL + "/"}, load, nil)
	if err != nil {
		t.Fatal(err)
	}
	set := livemetrics.New(plan.EndpointScenarios(), "")
	ctl := surge.NewController()
	srv, err := live.New(live.Config{Addr: "127.0.0.1:0", Control: ctl, Metrics: set, Planned: plan.Duration()})
	if err != nil {
		t.Fatal(err)
	}
	srv.Serve()
	t.Cleanup(func() { srv.Close(time.Second) })
	done := make(chan *result.Result, 1)
	go func() {
		res, err := surge.Run(context.Background(), plan, surge.Options{Metrics: set, Control: ctl, Watch: srv.Watch})
		if err != nil {
			t.Error(err)
		}
		srv.Finish(res)
		done <- res
	}()
	return srv, done
}

func post(t *testing.T, url, auth, body string) int {
	t.Helper()
	return call(t, http.MethodPost, url, auth, strings.NewReader(body))
}

// call sends a request with the Bearer token auth (none if empty) and
// returns the status code.
func call(t *testing.T, method, url, auth string, body io.Reader) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, body)
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestLivePageInChromium follows a run on the live page in Debian's
// Chromium: the numbers change while the run goes; control requests
// without the token are refused and change nothing; a rate typed on the
// page shows in the result's timeline; the stop button ends the run,
// whose result is then written; /metrics is readable on loopback.
func TestLivePageInChromium(t *testing.T) {
	browsertest.Require(t)
	srv, done := running(t)
	base := "http://" + srv.Addr()

	// Control without the token, or with a wrong one, is refused.
	for _, auth := range []string{"", "wrong"} {
		if code := post(t, base+"/api/stop", auth, ""); code != http.StatusForbidden {
			t.Errorf("stop with token %q: %d, want 403", auth, code)
		}
		if code := post(t, base+"/api/load", auth, `{"rate": 1}`); code != http.StatusForbidden {
			t.Errorf("load with token %q: %d, want 403", auth, code)
		}
	}

	dir := t.TempDir()
	tab := browsertest.Start(t, 3*time.Minute)
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL())); err != nil {
		t.Fatalf("open the live page: %v", err)
	}
	requests := func(more int) int {
		t.Helper()
		v, err := chromedp.Run(tab, chromedp.Poll[string](
			`(() => { const n = +document.getElementById("live-requests").textContent; return n > `+strconv.Itoa(more)+` ? String(n) : false; })()`,
			chromedp.WithPollingTimeout(30*time.Second)))
		if err != nil {
			t.Fatalf("the request count on the page did not pass %d: %v", more, err)
		}
		n, _ := strconv.Atoi(v)
		return n
	}
	first := requests(0)
	second := requests(first)
	if second <= first {
		t.Fatalf("numbers did not change: %d then %d", first, second)
	}
	if d := os.Getenv("SURGE_SCREENSHOT_DIR"); d != "" {
		if shot, err := chromedp.Run(tab, chromedp.FullScreenshot(100)); err == nil {
			_ = os.WriteFile(filepath.Join(d, "live.png"), shot, 0o644)
		}
	}
	charts, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("figure.chart canvas").length`))
	if err != nil || charts == 0 {
		t.Errorf("the live page draws no charts (%d, %v)", charts, err)
	}

	// A new rate from the page.
	if err := chromedp.Do(tab, chromedp.SetValue("#live-level", "10"), chromedp.Click("#live-apply")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[string](`document.getElementById("live-msg").textContent === "done" ? "ok" : false`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		msg, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("live-msg").textContent`))
		t.Fatalf("the rate change was not accepted: %q %v", msg, err)
	}

	// /metrics on loopback, without the token.
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "surge_requests_total{") {
		t.Errorf("/metrics: %d\n%.300s", resp.StatusCode, body)
	}

	// The stop button ends the run.
	if err := chromedp.Do(tab, chromedp.Click("#live-stop")); err != nil {
		t.Fatal(err)
	}
	var res *result.Result
	select {
	case res = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not end after the stop button")
	}
	path := filepath.Join(dir, "result.json")
	if err := res.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Run.Interrupted || !strings.Contains(back.Run.StopReason, "live page") {
		t.Errorf("run %+v: want interrupted from the live page", back.Run)
	}
	var kinds []string
	var rate float64
	for _, e := range back.Timeline {
		kinds = append(kinds, e.Kind+" by "+e.By)
		if e.Kind == "load" {
			rate = e.Level
		}
	}
	if strings.Join(kinds, ", ") != "load by the live page, stop by the live page" || rate != 10 {
		t.Errorf("timeline %+v: want the rate change to 10 and the stop, from the live page", back.Timeline)
	}
	if back.Run.DurationS >= 60 {
		t.Errorf("the run went on for %v s after the stop", back.Run.DurationS)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[string](`document.body.getAttribute("data-live") === "done" ? "ok" : false`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("the page did not say the run was over: %v", err)
	}
}

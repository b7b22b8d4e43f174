package importer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/internal/browsertest"
	"github.com/surge-load/surge/scenario"
)

// harRecorder builds a HAR 1.2 document from the network events of a
// Chromium tab, as the browser's developer tools do when saving one.
type harRecorder struct {
	tab     context.Context
	bodies  sync.WaitGroup // response bodies being read
	mu      sync.Mutex
	page    string
	pages   []map[string]any
	order   []network.RequestID
	entries map[network.RequestID]*harRec
}

type harRec struct {
	page     string
	sent     *network.EventRequestWillBeSent
	headers  network.Headers // as sent on the wire, cookies included
	resp     *network.Response
	finished float64 // monotonic seconds
	body     []byte
	hasBody  bool
}

func (r *harRecorder) listen(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.order = append(r.order, e.RequestID)
		r.entries[e.RequestID] = &harRec{page: r.page, sent: e}
	case *network.EventRequestWillBeSentExtraInfo:
		if rec := r.entries[e.RequestID]; rec != nil {
			rec.headers = e.Headers
		}
	case *network.EventResponseReceived:
		if rec := r.entries[e.RequestID]; rec != nil {
			rec.resp = e.Response
		}
	case *network.EventLoadingFinished:
		if rec := r.entries[e.RequestID]; rec != nil {
			rec.finished = e.Timestamp.Float64()
			// Read the body now, before a navigation drops it, and not on
			// this goroutine, which delivers the command's answer.
			r.bodies.Go(func() {
				body, err := chromedp.Call(r.tab, network.GetResponseBody, network.GetResponseBodyParams{RequestID: e.RequestID})
				r.mu.Lock()
				defer r.mu.Unlock()
				if err == nil {
					rec.body, rec.hasBody = body.Body, true
				}
			})
		}
	}
}

// newPage starts a page: the requests that follow belong to it.
func (r *harRecorder) newPage(title string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.page = "page_" + itoa(len(r.pages)+1)
	r.pages = append(r.pages, map[string]any{"id": r.page, "title": title, "startedDateTime": time.Now().UTC().Format(time.RFC3339Nano)})
}

func headerList(h network.Headers) []map[string]string {
	var out []map[string]string
	for k, v := range h {
		s, _ := v.(string)
		for _, line := range strings.Split(s, "\n") {
			out = append(out, map[string]string{"name": k, "value": line})
		}
	}
	return out
}

// har returns the HAR document, with response bodies and post data read
// from the tab.
func (r *harRecorder) har(t *testing.T) []byte {
	t.Helper()
	r.bodies.Wait()
	r.mu.Lock()
	order := append([]network.RequestID(nil), r.order...)
	recs := map[network.RequestID]harRec{}
	for id, rec := range r.entries {
		recs[id] = *rec
	}
	pages := append([]map[string]any(nil), r.pages...)
	r.mu.Unlock()
	var entries []map[string]any
	for _, id := range order {
		rec := recs[id]
		if rec.resp == nil || rec.finished == 0 {
			continue
		}
		req := rec.sent.Request
		hdrs := rec.headers
		if hdrs == nil {
			hdrs = req.Headers
		}
		request := map[string]any{"method": req.Method, "url": req.URL, "httpVersion": "HTTP/1.1", "headers": headerList(hdrs),
			"queryString": []any{}, "cookies": []any{}, "headersSize": -1, "bodySize": -1}
		if req.HasPostData {
			var pd []byte
			for _, e := range req.PostDataEntries {
				pd = append(pd, e.Bytes...)
			}
			ct, _ := req.Headers["Content-Type"].(string)
			request["postData"] = map[string]any{"mimeType": ct, "text": string(pd)}
		}
		content := map[string]any{"mimeType": rec.resp.MimeType, "size": 0}
		if rec.hasBody {
			content["text"] = string(rec.body)
			content["size"] = len(rec.body)
		}
		start := time.UnixMicro(int64(rec.sent.WallTime.Float64() * 1e6)).UTC()
		entries = append(entries, map[string]any{
			"pageref": rec.page, "startedDateTime": start.Format(time.RFC3339Nano),
			"time": (rec.finished - rec.sent.Timestamp.Float64()) * 1000, "request": request,
			"response": map[string]any{"status": rec.resp.Status, "statusText": rec.resp.StatusText, "httpVersion": rec.resp.Protocol,
				"headers": headerList(rec.resp.Headers), "cookies": []any{}, "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1},
			"cache": map[string]any{}, "timings": map[string]any{"send": 0, "wait": 0, "receive": 0},
		})
	}
	b, err := json.MarshalIndent(map[string]any{"log": map[string]any{"version": "1.2",
		"creator": map[string]any{"name": "Chromium (surge test recorder)", "version": "1"}, "pages": pages, "entries": entries}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHARFromChromium records a HAR of Debian's Chromium using the demo's
// /app page, whose script logs in (a session cookie), reads the session,
// writes a note with the CSRF token of the login response and reads the
// note back by the id the write returned, then opens the session endpoint
// as a second page. The import must leave out the stylesheet, the
// cookies and the browser's headers, capture the token and the id, group
// the two pages, and run against a fresh demo with every request passing,
// which needs the cookie jar, the captured token and the captured id.
func TestHARFromChromium(t *testing.T) {
	browsertest.Require(t)
	_, recorded := newDemo(t)
	dir := t.TempDir()
	tab := browsertest.Start(t, 60*time.Second)
	rec := &harRecorder{tab: tab, entries: map[network.RequestID]*harRec{}}
	if err := chromedp.Listen(tab, rec.listen); err != nil {
		t.Fatal(err)
	}
	rec.newPage("surge demo app")
	if err := chromedp.Do(tab, chromedp.Navigate(recorded+"/app")); err != nil {
		t.Fatal(err)
	}
	done, err := chromedp.Run(tab, chromedp.Poll[string](`document.body.dataset.done`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || done != "1" {
		t.Fatalf("the app page did not finish: %q %v", done, err)
	}
	if err := chromedp.Do(tab, chromedp.Sleep(600*time.Millisecond)); err != nil { // a user reading the page
		t.Fatal(err)
	}
	rec.newPage("session")
	if err := chromedp.Do(tab, chromedp.Navigate(recorded+"/api/v1/session")); err != nil {
		t.Fatal(err)
	}
	har := rec.har(t)
	if err := os.WriteFile(filepath.Join(dir, "demo.har"), har, 0o644); err != nil {
		t.Fatal(err)
	}

	f, err := importer.HAR("demo.har", har, importer.HAROptions{})
	if err != nil {
		t.Fatalf("%v\n%s", err, har)
	}
	src := string(f.YAML())
	for _, bad := range []string{"style.css", "Cookie", "User-Agent", "Sec-Fetch", "Accept-Language", "favicon"} {
		if strings.Contains(src, bad) {
			t.Errorf("the import kept %s:\n%s", bad, src)
		}
	}
	s := spec(t, f)
	flow := s.Scenarios[0].Flow
	if len(flow) != 2 {
		t.Fatalf("%d groups, want one per page (2):\n%s", len(flow), src)
	}
	var steps []scenario.Step
	for _, g := range flow {
		for _, st := range g.Steps {
			if st.Request != nil {
				steps = append(steps, st)
			}
		}
	}
	want := []string{"GET /app", "POST /api/v1/login", "GET /api/v1/session", "POST /api/v1/notes", "GET /api/v1/notes/{{ id }}", "GET /api/v1/session"}
	var got []string
	for _, st := range steps {
		got = append(got, st.Request.Method+" "+st.Request.URL)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), src)
	}
	if steps[1].Capture["csrfToken"] != "json.csrfToken" || steps[3].Capture["id"] != "json.id" ||
		steps[3].Request.Headers["X-Csrf-Token"] != "{{ csrfToken }}" {
		t.Errorf("captures: login %v, note %v, note headers %v\n%s", steps[1].Capture, steps[3].Capture, steps[3].Request.Headers, src)
	}
	if steps[1].Request.Form["userName"] != "ann" || steps[3].Request.JSON.(map[string]any)["text"] != "hello from the browser" {
		t.Errorf("bodies: %+v %+v", steps[1].Request, steps[3].Request)
	}

	svc, fresh := newDemo(t)
	res := runFile(t, f, fresh, scenario.Options{}, 3)
	noFailures(t, res, f)
	for ep, n := range map[string]int{"GET /app": 3, "POST /api/v1/login": 3, "GET /api/v1/session": 6, "POST /api/v1/notes": 3, "GET /api/v1/notes/{id}": 3} {
		if got := svc.Requests(ep, 0); got != n || svc.Requests(ep, 401)+svc.Requests(ep, 403)+svc.Requests(ep, 404) != 0 {
			t.Errorf("the demo answered %s %d times (%d refused), want %d, all passing", ep, got, svc.Requests(ep, 401)+svc.Requests(ep, 403), n)
		}
	}
	if svc.Requests("GET /app/style.css", 0) != 0 {
		t.Error("the static stylesheet was requested")
	}
}

func TestHARErrors(t *testing.T) {
	entry := `{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "https://a.example/x", "headers": []}, "response": {"status": 200, "headers": [], "content": {"mimeType": "text/css"}}}`
	for name, c := range map[string]struct {
		src  string
		opts importer.HAROptions
		want string
	}{
		"not a HAR":  {`{"info": {}}`, importer.HAROptions{}, "r.har: log.entries: not a HAR file: there is no log.entries; save the recording"},
		"broken":     {"{\"log\": {\n\"entries\": [,]}}", importer.HAROptions{}, "r.har:2:13: broken JSON"},
		"type":       {`{"log": {"entries": {}}}`, importer.HAROptions{}, "r.har:1:22: log.entries: must be []importer.harEntry"},
		"no host":    {`{"log": {"entries": [` + entry + `]}}`, importer.HAROptions{Hosts: []string{"b.example"}}, "no request of the recording went to host b.example; choose among: a.example"},
		"all static": {`{"log": {"entries": [` + entry + `]}}`, importer.HAROptions{}, "nothing to import: 1 static assets and 0 requests to other hosts; pass --include-static"},
		"empty":      {`{"log": {"entries": []}}`, importer.HAROptions{}, "the recording has no http or https request"},
	} {
		_, err := importer.HAR("r.har", []byte(c.src), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", name, err, c.want)
		}
	}
	f, err := importer.HAR("r.har", []byte(`{"log": {"entries": [`+entry+`]}}`), importer.HAROptions{IncludeStatic: true})
	if err != nil || !strings.Contains(string(f.YAML()), "get: /x") {
		t.Errorf("--include-static: %v\n%s", err, f.YAML())
	}
}

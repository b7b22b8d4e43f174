package httpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

func hello(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "hello, world\n")
}

func TestKeepAliveReusesOneConnection(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(hello), false)
	c := New(Options{})
	defer c.Close()
	req := mustPrepare(t, &Request{Method: "GET", URL: ts.URL + "/x", Header: http.Header{"User-Agent": {"surge-test"}}})

	var wantIn, wantOut int64
	for i := range 50 {
		var s metrics.Sample
		s.Endpoint, s.Intended = 7, s.Start // untouched by Do
		resp := c.Do(context.Background(), req, &s)
		if s.Class != errclass.None || s.Err != nil || resp.Status != 200 || s.Status != 200 {
			t.Fatalf("request %d: status %d, class %q, err %v", i, s.Status, s.Class, s.Err)
		}
		if s.Endpoint != 7 || !s.Intended.IsZero() {
			t.Fatalf("Do touched Endpoint or Intended: %d %v", s.Endpoint, s.Intended)
		}
		if resp.Body != nil {
			t.Fatalf("Body kept without KeepBody: %q", resp.Body)
		}
		checkTiming(t, &s)
		if i == 0 && s.Timing.Connect <= 0 {
			t.Errorf("first request: Connect = %v, want > 0", s.Timing.Connect)
		}
		if i > 0 && (s.Timing.Connect != 0 || s.Timing.DNS != 0 || s.Timing.TLS != 0) {
			t.Errorf("request %d on a reused connection: %+v", i, s.Timing)
		}
		if s.Timing.Wait <= 0 {
			t.Errorf("request %d: Wait = %v, want > 0", i, s.Timing.Wait)
		}
		// What the server read and wrote for this request is what the
		// client counted.
		wantIn += s.BytesIn
		wantOut += s.BytesOut
		if !eventually(func() bool { return ts.bytes.written.Load() == wantIn && ts.bytes.read.Load() == wantOut }) {
			t.Fatalf("request %d: client counted in %d, out %d (totals %d, %d); server wrote %d, read %d",
				i, s.BytesIn, s.BytesOut, wantIn, wantOut, ts.bytes.written.Load(), ts.bytes.read.Load())
		}
		if s.BytesIn < 50 || s.BytesOut < 50 {
			t.Errorf("request %d: BytesIn %d, BytesOut %d: headers not counted?", i, s.BytesIn, s.BytesOut)
		}
	}
	if n := ts.conns.Load(); n != 1 {
		t.Errorf("50 keep-alive requests used %d connections, want 1", n)
	}
}

func TestPostBodyBytes(t *testing.T) {
	var got atomic.Int64
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		got.Store(n)
		w.WriteHeader(http.StatusCreated)
	}), false)
	c := New(Options{})
	defer c.Close()
	body := bytes.Repeat([]byte("x"), 100_000)
	req := mustPrepare(t, &Request{Method: "POST", URL: ts.URL, Body: body,
		Header: http.Header{"Content-Type": {"application/octet-stream"}}})
	var wantOut int64
	for i := range 3 {
		var s metrics.Sample
		c.Do(context.Background(), req, &s)
		if s.Status != 201 || s.Class != errclass.None {
			t.Fatalf("request %d: status %d, class %q, err %v", i, s.Status, s.Class, s.Err)
		}
		if got.Load() != int64(len(body)) {
			t.Fatalf("server read a body of %d bytes, want %d", got.Load(), len(body))
		}
		checkTiming(t, &s)
		wantOut += s.BytesOut
		if s.BytesOut < int64(len(body)) {
			t.Errorf("BytesOut = %d, less than the body", s.BytesOut)
		}
		if !eventually(func() bool { return ts.bytes.read.Load() == wantOut }) {
			t.Errorf("client sent %d bytes, server read %d", wantOut, ts.bytes.read.Load())
		}
	}
	if n := ts.conns.Load(); n != 1 {
		t.Errorf("used %d connections, want 1", n)
	}
}

func TestNoKeepAlive(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(hello), false)
	c := New(Options{NoKeepAlive: true})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: ts.URL})
	var wantIn, wantOut int64
	for i := range 10 {
		var s metrics.Sample
		c.Do(context.Background(), req, &s)
		if s.Status != 200 || s.Class != errclass.None {
			t.Fatalf("request %d: status %d, class %q, err %v", i, s.Status, s.Class, s.Err)
		}
		checkTiming(t, &s)
		if s.Timing.Connect <= 0 {
			t.Errorf("request %d: Connect = %v, want > 0 on a new connection", i, s.Timing.Connect)
		}
		wantIn += s.BytesIn
		wantOut += s.BytesOut
	}
	if n := ts.conns.Load(); n != 10 {
		t.Errorf("10 requests without keep-alive used %d connections, want 10", n)
	}
	if !eventually(func() bool { return ts.bytes.written.Load() == wantIn && ts.bytes.read.Load() == wantOut }) {
		t.Errorf("client counted in %d, out %d; server wrote %d, read %d",
			wantIn, wantOut, ts.bytes.written.Load(), ts.bytes.read.Load())
	}
}

func TestHTTP2OverTLS(t *testing.T) {
	var protoMajor atomic.Int64
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protoMajor.Store(int64(r.ProtoMajor))
		hello(w, r)
	}), true)
	c := New(Options{InsecureTLS: true})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: ts.URL, KeepBody: true})
	for i := range 3 {
		var s metrics.Sample
		resp := c.Do(context.Background(), req, &s)
		if s.Status != 200 || s.Class != errclass.None {
			t.Fatalf("request %d: status %d, class %q, err %v", i, s.Status, s.Class, s.Err)
		}
		if protoMajor.Load() != 2 || resp.Proto != "HTTP/2.0" {
			t.Fatalf("request %d: server saw HTTP/%d, client %s; want HTTP/2", i, protoMajor.Load(), resp.Proto)
		}
		if string(resp.Body) != "hello, world\n" {
			t.Errorf("body %q", resp.Body)
		}
		checkTiming(t, &s)
		if i == 0 && (s.Timing.TLS <= 0 || s.Timing.Connect <= 0) {
			t.Errorf("first request: TLS %v, Connect %v, want > 0", s.Timing.TLS, s.Timing.Connect)
		}
		if i > 0 && (s.Timing.TLS != 0 || s.Timing.Connect != 0) {
			t.Errorf("request %d on a reused connection: %+v", i, s.Timing)
		}
		if s.BytesIn <= 0 || s.BytesOut <= 0 {
			t.Errorf("request %d: BytesIn %d, BytesOut %d", i, s.BytesIn, s.BytesOut)
		}
	}
	if n := ts.conns.Load(); n != 1 {
		t.Errorf("used %d connections, want 1", n)
	}
}

func TestRedirectNotFollowed(t *testing.T) {
	var followed atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/new", http.StatusFound)
	})
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) { followed.Add(1) })
	ts := newTestServer(t, mux, false)
	c := New(Options{})
	defer c.Close()
	var s metrics.Sample
	resp := c.Do(context.Background(), mustPrepare(t, &Request{URL: ts.URL + "/old"}), &s)
	if s.Status != http.StatusFound || resp.Status != http.StatusFound || s.Class != errclass.None || s.Err != nil {
		t.Errorf("status %d, class %q, err %v; want 302, success", s.Status, s.Class, s.Err)
	}
	if loc := resp.Header.Get("Location"); loc != "/new" {
		t.Errorf("Location %q", loc)
	}
	if followed.Load() != 0 {
		t.Error("the redirect was followed")
	}
	checkTiming(t, &s)
}

func TestStatusClasses(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		w.WriteHeader(code)
		io.WriteString(w, "error page")
	}), false)
	c := New(Options{})
	defer c.Close()
	for _, tc := range []struct {
		code  int
		class errclass.Class
	}{{200, errclass.None}, {204, errclass.None}, {404, errclass.HTTP4xx}, {503, errclass.HTTP5xx}} {
		var s metrics.Sample
		resp := c.Do(context.Background(), &Request{URL: ts.URL + "/?code=" + strconv.Itoa(tc.code)}, &s)
		wantErr := ""
		if tc.class != errclass.None {
			wantErr = "status " + strconv.Itoa(tc.code) + ": error page"
		}
		if gotErr := fmt.Sprint(s.Err); s.Status != tc.code || resp.Status != tc.code || s.Class != tc.class || (s.Err != nil) != (wantErr != "") || (wantErr != "" && gotErr != wantErr) {
			t.Errorf("status %d: got status %d, class %q, err %v; want class %q, err %q",
				tc.code, s.Status, s.Class, s.Err, tc.class, wantErr)
		}
		checkTiming(t, &s)
	}
	if n := ts.conns.Load(); n != 1 {
		t.Errorf("used %d connections, want 1: error responses must not cost the connection", n)
	}
}

func TestKeepBody(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("chunked") {
			w.(http.Flusher).Flush() // no Content-Length
		}
		io.WriteString(w, "hello, world\n")
	}), false)
	c := New(Options{MaxResponseBytes: 5})
	defer c.Close()
	ctx := context.Background()

	var s metrics.Sample
	resp := c.Do(ctx, &Request{URL: ts.URL, KeepBody: true}, &s)
	if string(resp.Body) != "hello" || !resp.Truncated || s.Class != errclass.None {
		t.Errorf("capped body: %q, truncated %v, class %q", resp.Body, resp.Truncated, s.Class)
	}
	resp = c.Do(ctx, &Request{URL: ts.URL + "/?chunked", KeepBody: true}, &s)
	if string(resp.Body) != "hello" || !resp.Truncated || s.Class != errclass.None {
		t.Errorf("capped chunked body: %q, truncated %v, class %q", resp.Body, resp.Truncated, s.Class)
	}
	resp = c.Do(ctx, &Request{URL: ts.URL}, &s)
	if resp.Body != nil || resp.Truncated || s.Status != 200 {
		t.Errorf("without KeepBody: body %q, status %d", resp.Body, s.Status)
	}

	c2 := New(Options{})
	defer c2.Close()
	for _, q := range []string{"", "?chunked"} {
		resp = c2.Do(ctx, &Request{URL: ts.URL + "/" + q, KeepBody: true}, &s)
		if string(resp.Body) != "hello, world\n" || resp.Truncated {
			t.Errorf("%s: body %q, truncated %v", q, resp.Body, resp.Truncated)
		}
	}
	if n := ts.conns.Load(); n != 2 {
		t.Errorf("two clients used %d connections, want 2", n)
	}
}

func TestBadURL(t *testing.T) {
	c := New(Options{})
	defer c.Close()
	for _, u := range []string{"ftp://example.com/", "/relative", "http://%zz"} {
		if err := (&Request{URL: u}).Prepare(); err == nil {
			t.Errorf("Prepare(%q) succeeded", u)
		}
		var s metrics.Sample
		c.Do(context.Background(), &Request{URL: u}, &s)
		if s.Class != errclass.Other || s.Err == nil {
			t.Errorf("%q: class %q, err %v; want other", u, s.Class, s.Err)
		}
	}
}

// TestStatusErrorKeepsTheReason checks that a failed status carries the
// start of the body, which says why, whether or not the body is kept.
func TestStatusErrorKeepsTheReason(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, "{\"error\":\n  \"lock wait timeout exceeded\"}"+strings.Repeat(" pad", 1000))
	}))
	defer srv.Close()
	for _, keep := range []bool{false, true} {
		tr := New(Options{})
		req := &Request{URL: srv.URL, KeepBody: keep}
		var s metrics.Sample
		resp := tr.Do(context.Background(), req, &s)
		var se *StatusError
		if s.Class != errclass.HTTP5xx || !errors.As(s.Err, &se) || se.Status != 503 ||
			!strings.HasPrefix(s.Err.Error(), `status 503: {"error": "lock wait timeout exceeded"}`) || utf8.RuneCountInString(se.Snippet()) > 121 {
			t.Errorf("keep=%v: class %s, err %v", keep, s.Class, s.Err)
		}
		if (resp.Body != nil) != keep {
			t.Errorf("keep=%v: body kept = %v", keep, resp.Body != nil)
		}
		tr.Close()
	}
}

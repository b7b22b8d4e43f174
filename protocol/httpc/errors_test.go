package httpc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// TestContextCauseIsTyped: contextCause recognises the ways a done context
// comes back from the transports by their types, not their text.
func TestContextCauseIsTyped(t *testing.T) {
	cause := errors.New("the run is over")
	done, cancel := context.WithCancelCause(context.Background())
	cancel(cause)

	// A dial on a canceled context: net's "operation was canceled",
	// which is context.Canceled.
	_, dialErr := (&net.Dialer{}).DialContext(done, "tcp", "127.0.0.1:1")
	if dialErr == nil {
		t.Fatal("dial on a canceled context succeeded")
	}
	timeoutErr := &net.OpError{Op: "read", Net: "tcp", Err: timeoutError{}}
	other := errors.New("connection reset by peer")
	lookalike := errors.New("net/http: request canceled") // the text alone

	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want error
	}{
		{"live context", context.Background(), fmt.Errorf("x: %w", context.Canceled), nil},
		{"the cause itself", done, fmt.Errorf("get: %w", cause), nil},
		{"context.Canceled in a url.Error", done, &url.Error{Op: "Get", URL: "http://h/", Err: context.Canceled}, cause},
		{"context.DeadlineExceeded", done, fmt.Errorf("h2: %w", context.DeadlineExceeded), cause},
		{"a dial cut short", done, dialErr, cause},
		{"a net timeout", done, timeoutErr, cause},
		{"an unrelated failure", done, other, nil},
		{"a look-alike text", done, lookalike, nil},
	} {
		got := contextCause(c.ctx, c.err)
		want := c.want
		if want == nil {
			want = c.err // left as it is
		}
		if got != want {
			t.Errorf("%s: contextCause(%v) = %v, want %v", c.name, c.err, got, want)
		}
	}
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// TestCanceledHTTP2: over net/http's HTTP/2 transport a request cut short
// by its timeout or by the run's interruption, before the response head or
// in the middle of the body, is classed by the context's cause.
func TestCanceledHTTP2(t *testing.T) {
	release := make(chan struct{})
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("mid") {
			w.Write(make([]byte, 100))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), true)
	defer close(release)

	for _, c := range []struct {
		name      string
		path      string
		interrupt bool
		want      errclass.Class
	}{
		{"timeout before the head", "/", false, errclass.Timeout},
		{"timeout mid-body", "/?mid", false, errclass.Timeout},
		{"interrupted before the head", "/", true, errclass.Interrupted},
		{"interrupted mid-body", "/?mid", true, errclass.Interrupted},
	} {
		t.Run(c.name, func(t *testing.T) {
			timeout := 200 * time.Millisecond
			ctx := context.Background()
			if c.interrupt {
				timeout = time.Minute
				var cancel context.CancelCauseFunc
				ctx, cancel = context.WithCancelCause(ctx)
				time.AfterFunc(200*time.Millisecond, func() { cancel(errclass.ErrInterrupted) })
			}
			cl := New(Options{InsecureTLS: true, Timeout: timeout})
			defer cl.Close()
			var s metrics.Sample
			cl.Do(ctx, mustPrepare(t, &Request{URL: ts.URL + c.path}), &s)
			if s.Class != c.want {
				t.Fatalf("class %q, want %q; err: %v", s.Class, c.want, s.Err)
			}
			if s.Proto != "HTTP/2.0" && s.Proto != "" {
				t.Errorf("proto %q, want HTTP/2.0", s.Proto)
			}
			if c.path == "/?mid" && s.Status != 200 {
				t.Errorf("status %d, want the 200 that arrived", s.Status)
			}
			t.Logf("err: %v", s.Err)
		})
	}
}

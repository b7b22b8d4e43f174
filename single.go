package surge

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/sanitize"
)

// A Request is one HTTP request: the whole journey of a single-URL test.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
	HTTP   httpc.Options
}

// SingleURL returns a plan in which every iteration sends req once, under
// load. Its statistics row is named "METHOD /path".
func SingleURL(req Request, load executor.Load, thresholds []analysis.Threshold) (*Plan, error) {
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("url %q: want an absolute http:// or https:// URL, such as http://127.0.0.1:8080/", req.URL)
	}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	name := req.Method + " " + path
	hreq := &httpc.Request{Method: req.Method, URL: req.URL, Header: req.Header, Body: req.Body, NoHeader: true}
	if err := hreq.Prepare(); err != nil {
		return nil, err
	}
	sc := Scenario{
		Name:        "default",
		Load:        load,
		Conns:       load.PeakUsers(),
		SourceAddrs: len(req.HTTP.LocalAddrs),
		Describe:    load.String(),
		Endpoints:   []string{name},
		Users: func(rec *metrics.Recorder) executor.NewUser {
			ep := rec.Endpoint(name)
			return func(id int) executor.User {
				return &requestUser{ep: ep, shard: rec.Shard(id), req: hreq, tr: httpc.New(req.HTTP)}
			}
		},
	}
	return &Plan{
		Target:     u.Scheme + "://" + u.Host,
		Scenarios:  []Scenario{sc},
		Thresholds: thresholds,
		Spec:       singleSpec(req, load),
	}, nil
}

// requestUser sends one request per iteration over its own connections.
type requestUser struct {
	ep    metrics.EndpointID
	shard *metrics.Shard
	req   *httpc.Request
	tr    httpc.Transport
	// s is the sample of the iteration in flight, reused: passed to the
	// transport, a sample of the iteration's own would escape and cost an
	// allocation per request.
	s metrics.Sample
}

// Close closes the user's connections.
func (u *requestUser) Close() { u.tr.Close() }

// Warm opens the user's connection before the load starts.
func (u *requestUser) Warm(ctx context.Context) { u.tr.Warm(ctx, u.req) }

func (u *requestUser) Iterate(ctx context.Context, it executor.Iteration) {
	u.s = metrics.Sample{Endpoint: u.ep, Intended: it.LatencyFrom()}
	u.tr.Do(ctx, u.req, &u.s)
	u.shard.Record(&u.s)
}

func singleSpec(req Request, load executor.Load) map[string]any {
	h := map[string]string{}
	for k, vs := range req.Header {
		h[k] = sanitize.Header(k, strings.Join(vs, ", "))
	}
	return map[string]any{
		"request": map[string]any{"method": req.Method, "url": sanitize.URL(req.URL), "headers": h, "body_bytes": len(req.Body),
			"timeout": req.HTTP.Timeout.String(), "no_keepalive": req.HTTP.NoKeepAlive},
		"load": load.String(),
	}
}

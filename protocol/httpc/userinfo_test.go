package httpc

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// TestUserInfoIsBasicAuth sends requests to a URL with user info, on the
// lean HTTP/1.1 client and on HTTP/2 over net/http: the server receives
// the user and password as basic auth, as net/http's Client and browsers
// send them, and a request's own Authorization header wins over them.
func TestUserInfoIsBasicAuth(t *testing.T) {
	for _, tls := range []bool{false, true} {
		got := make(chan string, 4)
		ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			user, pass, ok := r.BasicAuth()
			if ok {
				got <- r.Proto + " " + user + ":" + pass
			} else {
				got <- r.Proto + " " + r.Header.Get("Authorization")
			}
		}), tls)
		tr := New(Options{InsecureTLS: true})
		u := strings.Replace(ts.URL, "://", "://bob:s3cret@", 1) + "/x"
		for _, c := range []struct {
			header http.Header
			want   string
		}{
			{nil, "bob:s3cret"},
			{http.Header{"Authorization": {"Bearer T"}}, "Bearer T"},
		} {
			req := &Request{URL: u, Header: c.header}
			if err := req.Prepare(); err != nil {
				t.Fatal(err)
			}
			var s metrics.Sample
			resp := tr.Do(context.Background(), req, &s)
			if s.Class != errclass.None || resp.Status != 200 {
				t.Fatalf("tls %v: status %d, class %s, %v", tls, resp.Status, s.Class, s.Err)
			}
			wantProto := "HTTP/1.1"
			if tls {
				wantProto = "HTTP/2.0"
			}
			if g := <-got; g != wantProto+" "+c.want {
				t.Errorf("tls %v, header %v: the server saw %q; want %q", tls, c.header, g, wantProto+" "+c.want)
			}
		}
		tr.Close()
	}
}

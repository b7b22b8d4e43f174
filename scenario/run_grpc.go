package scenario

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/grpcc"
	"github.com/surge-load/surge/protocol/httpc"
)

// grpcCall makes the call of s and checks its response; it reports whether
// the iteration may go on. It records exactly one sample.
func (u *vuser) grpcCall(ctx context.Context, s *step) bool {
	r := s.req
	smp := metrics.Sample{Endpoint: u.ids[r.ep], Intended: u.intended}
	u.intended = time.Time{}
	call, err := u.buildCall(s)
	if err != nil {
		return u.notBuilt(s, &smp, "call", err)
	}
	if u.grpc == nil {
		u.grpc = grpcc.New(grpcc.Options{Timeout: u.p.http.Timeout, InsecureTLS: u.p.http.InsecureTLS, Reflection: u.p.grpcReflection()})
	}
	resp := u.grpc.Do(ctx, call, &smp)
	e := s.expect
	if e != nil && len(e.status) > 0 {
		switch {
		case slices.Contains(e.status, int(resp.Code)):
			smp.Class, smp.Err = errclass.None, nil
		case smp.Class == errclass.None:
			smp.Class, smp.Err = errclass.Check, fmt.Errorf("expect status %s: got %d (%s)", statusList(e.status), resp.Code, resp.Code)
		}
	}
	ok := smp.Class == errclass.None
	if ok {
		hresp := httpc.Response{Status: int(resp.Code), Header: http.Header(resp.Header), Body: resp.Last}
		u.Env[nameMessages] = resp.Messages
		ok = u.judge(s, &smp, &hresp)
	}
	if !ok {
		u.failure = fmt.Errorf("%s: %s: %w", s.path, s.grpc.name, smp.Err)
	}
	u.shard.Record(&smp)
	return ok
}

// buildCall renders the call of s.
func (u *vuser) buildCall(s *step) (*grpcc.Call, error) {
	if err := u.build(s); err != nil {
		return nil, err
	}
	t, err := url.Parse(u.req.URL)
	if err != nil {
		return nil, err
	}
	call := &grpcc.Call{Target: t.Host, TLS: t.Scheme == "https", Method: s.grpc.method, MethodName: s.grpc.name,
		Message: u.req.Body, Deadline: u.req.Timeout}
	if !strings.Contains(t.Host, ":") {
		call.Target += map[bool]string{true: ":443", false: ":80"}[call.TLS]
	}
	for k, vs := range u.req.Header {
		if len(vs) == 0 || slices.Contains(grpcMetadataSkipped, strings.ToLower(k)) {
			continue
		}
		if call.Metadata == nil {
			call.Metadata = map[string]string{}
		}
		call.Metadata[k] = vs[0]
	}
	return call, nil
}

// grpcReflection returns the program's shared server reflection.
func (p *program) grpcReflection() *grpcc.Reflection {
	p.reflectionOnce.Do(func() { p.reflection = &grpcc.Reflection{} })
	return p.reflection
}

package grpcc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/netdial"
	"github.com/surge-load/surge/metrics"
)

// DefaultTimeout bounds a call without a deadline of its own.
const DefaultTimeout = 30 * time.Second

// Options configure a Client.
type Options struct {
	// Timeout is the deadline of a call whose Call.Deadline is zero; zero
	// means DefaultTimeout.
	Timeout time.Duration
	// InsecureTLS skips verification of the server's certificate.
	InsecureTLS bool
	// Reflection finds the methods of calls that have no descriptor; nil
	// means calls must have one.
	Reflection *Reflection
}

// A Call is one RPC.
type Call struct {
	Target string // host:port
	TLS    bool
	// Method describes the method; nil means it is found by server
	// reflection under MethodName.
	Method     protoreflect.MethodDescriptor
	MethodName string
	Message    []byte            // the request message as JSON (protojson)
	Metadata   map[string]string // sent as request metadata
	Deadline   time.Duration     // zero means Options.Timeout
}

// A Response is what a call returned.
type Response struct {
	Code     codes.Code  // the call's status
	Messages int         // response messages received
	Last     []byte      // the last message as JSON; nil if none
	Header   metadata.MD // the response header metadata
}

// A Client is one virtual user's gRPC client: a connection of its own per
// target. It is not safe for concurrent use: one Do at a time.
type Client struct {
	opts  Options
	conns map[string]*conn
}

// New returns a Client.
func New(opts Options) *Client {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Client{opts: opts, conns: map[string]*conn{}}
}

// Close closes the connections.
func (c *Client) Close() {
	for k, cn := range c.conns {
		_ = cn.cc.Close()
		delete(c.conns, k)
	}
}

// conn is a connection to one target and what its dials recorded.
type conn struct {
	cc              *grpc.ClientConn
	bytes           netdial.Counter // wire bytes, below TLS
	seenIn, seenOut int64
	// The last dial's steps, in nanoseconds since the Unix epoch; taken
	// by the call during which they happened.
	connectStart, connectEnd, tlsStart, tlsEnd atomic.Int64
}

func (c *Client) conn(call *Call) (*conn, error) {
	key := call.Target
	if call.TLS {
		key = "tls " + key
	}
	if cn := c.conns[key]; cn != nil {
		return cn, nil
	}
	cn := &conn{}
	var creds credentials.TransportCredentials = insecure.NewCredentials()
	if call.TLS {
		creds = &timedTLS{TransportCredentials: credentials.NewTLS(&tls.Config{InsecureSkipVerify: c.opts.InsecureTLS}), cn: cn}
	}
	dial := func(ctx context.Context, addr string) (net.Conn, error) {
		cn.connectStart.Store(time.Now().UnixNano())
		nc, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		cn.connectEnd.Store(time.Now().UnixNano())
		if err != nil {
			return nil, err
		}
		// gRPC writes on a goroutine of its own: the answer may arrive,
		// and the call end, before a Write returns; the Counter counts
		// before writing.
		return netdial.Counting(nc, &cn.bytes), nil
	}
	cc, err := grpc.NewClient("passthrough:///"+call.Target, grpc.WithTransportCredentials(creds), grpc.WithContextDialer(dial))
	if err != nil {
		return nil, err
	}
	c.conns[key] = cn
	cn.cc = cc
	return cn, nil
}

// Do makes the call under ctx and measures it into s: Start, End, Timing,
// Status (the gRPC code), Class, Err, BytesIn and BytesOut. A call that did
// not end with OK failed with the class of its code.
func (c *Client) Do(ctx context.Context, call *Call, s *metrics.Sample) Response {
	s.Start = time.Now()
	s.Proto = ""
	resp, err := c.do(ctx, call, s)
	s.End = time.Now()
	if cn := c.conns[connKey(call)]; cn != nil {
		s.BytesIn, s.BytesOut = charge(&cn.seenIn, cn.bytes.In.Load()), charge(&cn.seenOut, cn.bytes.Out.Load())
		connect, tlsDur := cn.dialSteps(s.Start)
		s.Timing.Connect, s.Timing.TLS = connect, tlsDur
	}
	if s.Timing.Wait > 0 {
		s.Timing.Wait -= s.Timing.Connect + s.Timing.TLS
		s.Timing.Wait = max(s.Timing.Wait, 0)
	}
	s.Status = int(resp.Code)
	if err != nil {
		if ctx.Err() != nil && errors.Is(context.Cause(ctx), errclass.ErrInterrupted) {
			s.Class = errclass.Interrupted
		} else if st, ok := status.FromError(err); ok {
			resp.Code = st.Code()
			s.Status = int(st.Code())
			s.Class = errclass.FromGRPCCode(uint32(st.Code()))
		} else {
			s.Class = errclass.Other
		}
		s.Err = err
		return resp
	}
	s.Class, s.Err = errclass.None, nil
	return resp
}

func connKey(call *Call) string {
	if call.TLS {
		return "tls " + call.Target
	}
	return call.Target
}

func (c *Client) do(ctx context.Context, call *Call, s *metrics.Sample) (Response, error) {
	var resp Response
	cn, err := c.conn(call)
	if err != nil {
		return resp, status.Error(codes.InvalidArgument, err.Error())
	}
	deadline := call.Deadline
	if deadline <= 0 {
		deadline = c.opts.Timeout
	}
	cctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	md := call.Method
	if md == nil {
		if c.opts.Reflection == nil {
			return resp, status.Error(codes.InvalidArgument, "the method has no descriptor and reflection is off")
		}
		if md, err = c.opts.Reflection.method(cctx, cn.cc, call.Target, call.MethodName); err != nil {
			return resp, err
		}
	}
	in := dynamicpb.NewMessage(md.Input())
	if err := protojson.Unmarshal(call.Message, in); err != nil {
		return resp, status.Error(codes.InvalidArgument, fmt.Sprintf("the message is not a %s: %v", md.Input().FullName(), err))
	}
	if len(call.Metadata) > 0 {
		pairs := make([]string, 0, 2*len(call.Metadata))
		for k, v := range call.Metadata {
			pairs = append(pairs, strings.ToLower(k), v)
		}
		cctx = metadata.AppendToOutgoingContext(cctx, pairs...)
	}
	sent := time.Now()
	stream, err := cn.cc.NewStream(cctx, &grpc.StreamDesc{ServerStreams: md.IsStreamingServer()}, Path(md))
	if err != nil {
		return resp, err
	}
	if err := stream.SendMsg(in); err != nil && err != io.EOF {
		return resp, err
	}
	if err := stream.CloseSend(); err != nil {
		return resp, err
	}
	var first time.Time
	for {
		out := dynamicpb.NewMessage(md.Output())
		err := stream.RecvMsg(out)
		if err == io.EOF {
			break
		}
		if err != nil {
			if first.IsZero() {
				s.Timing.Wait = time.Since(sent)
			}
			resp.Header, _ = stream.Header()
			return resp, err
		}
		if first.IsZero() {
			first = time.Now()
			s.Timing.Wait = first.Sub(sent)
			resp.Header, _ = stream.Header()
		}
		resp.Messages++
		resp.Last, _ = protojson.Marshal(out)
		if !md.IsStreamingServer() {
			break
		}
	}
	if !first.IsZero() {
		s.Timing.Receive = time.Since(first)
	}
	s.Timing.Send = 0
	s.Proto = "HTTP/2.0"
	return resp, nil
}

// dialSteps returns the connect and TLS times of a dial that started at or
// after start, once.
func (cn *conn) dialSteps(start time.Time) (connect, tlsDur time.Duration) {
	cs := cn.connectStart.Load()
	if cs == 0 || cs < start.UnixNano() {
		return 0, 0
	}
	cn.connectStart.Store(0)
	connect = time.Duration(cn.connectEnd.Load() - cs)
	if ts := cn.tlsStart.Load(); ts >= cs {
		tlsDur = time.Duration(cn.tlsEnd.Load() - ts)
	}
	return max(connect, 0), max(tlsDur, 0)
}

func charge(seen *int64, count int64) int64 {
	if count <= *seen {
		return 0
	}
	d := count - *seen
	*seen = count
	return d
}

// timedTLS times the TLS handshakes of a connection.
type timedTLS struct {
	credentials.TransportCredentials
	cn *conn
}

func (t *timedTLS) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	t.cn.tlsStart.Store(time.Now().UnixNano())
	c, info, err := t.TransportCredentials.ClientHandshake(ctx, authority, raw)
	t.cn.tlsEnd.Store(time.Now().UnixNano())
	return c, info, err
}

func (t *timedTLS) Clone() credentials.TransportCredentials {
	return &timedTLS{TransportCredentials: t.TransportCredentials.Clone(), cn: t.cn}
}

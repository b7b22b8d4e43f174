package httpc

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/metrics"
)

// refuseEvery answers HTTP/2 requests and refuses every n-th stream with
// RST_STREAM REFUSED_STREAM, on which net/http re-sends the request on the
// same connection. It counts the requests (HEADERS frames) it read.
func refuseEvery(t *testing.T, n int, read *atomic.Int64) string {
	cert := httptest.NewTLSServer(nil)
	cfg := cert.TLS.Clone()
	cert.Close()
	cfg.NextProtos = []string{"h2"}
	return servertest.Raw(t, func(raw net.Conn) {
		c := tls.Server(raw, cfg)
		defer c.Close()
		preface := make([]byte, len(http2.ClientPreface))
		if _, err := io.ReadFull(c, preface); err != nil {
			return
		}
		fr := http2.NewFramer(c, c)
		if err := fr.WriteSettings(); err != nil {
			return
		}
		var hb bytes.Buffer
		enc := hpack.NewEncoder(&hb)
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				return
			}
			switch f := f.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					fr.WriteSettingsAck()
				}
			case *http2.HeadersFrame:
				if read.Add(1)%int64(n) == 0 {
					fr.WriteRSTStream(f.StreamID, http2.ErrCodeRefusedStream)
					continue
				}
				hb.Reset()
				enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
				enc.WriteField(hpack.HeaderField{Name: "content-length", Value: "2"})
				fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: hb.Bytes(), EndHeaders: true})
				fr.WriteData(f.StreamID, true, []byte("ok"))
			}
		}
	})
}

// TestNoSilentResendHTTP2: net/http's HTTP/2 client re-sends a request
// refused with REFUSED_STREAM; surge reports the refused attempt instead.
func TestNoSilentResendHTTP2(t *testing.T) {
	var read atomic.Int64
	addr := refuseEvery(t, 4, &read)
	c := New(Options{InsecureTLS: true})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: "https://" + addr + "/"})
	const sends = 20
	failed := 0
	for range sends {
		s := new(metrics.Sample)
		c.Do(context.Background(), req, s)
		checkTiming(t, s)
		if s.Class != errclass.None {
			failed++
			if failed == 1 {
				t.Logf("class %s: %v", s.Class, s.Err)
			}
		}
	}
	if got := read.Load(); got != sends {
		t.Errorf("the server read %d requests; surge reported %d (%d failed)", got, sends, failed)
	}
	if failed != sends/4 {
		t.Errorf("%d failed, want %d", failed, sends/4)
	}
}

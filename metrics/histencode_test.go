package metrics

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"io"
	"math/rand/v2"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// TestHistEncoderMatchesTheLibrary encodes histograms of many shapes with
// histEncoder and checks that hdrhistogram-go decodes each to the same
// buckets, and that the uncompressed payload is the library's byte for byte.
func TestHistEncoderMatchesTheLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var e histEncoder
	for k := range 300 {
		h := newHist()
		n := 1 + rng.IntN(5000)
		for range n {
			var v int64
			switch k % 4 {
			case 0:
				v = 1 + rng.Int64N(3000) // dense, small
			case 1:
				v = int64(rng.ExpFloat64() * 20000) // a latency-like tail
			case 2:
				v = rng.Int64N(histHighestUs) // anywhere up to an hour
			default:
				v = []int64{1, 2047, 2048, 2049, 4095, 4096, 1 << 20, histHighestUs}[rng.IntN(8)]
			}
			_ = h.RecordValues(v, 1+rng.Int64N(3))
		}
		if k == 7 {
			_ = h.RecordValues(5, 1<<60) // counts of nine LEB128 bytes
		}
		got := e.encode(h)
		d, err := hdr.DecodePacked([]byte(got))
		if err != nil {
			t.Fatalf("histogram %d: the library cannot decode ours: %v", k, err)
		}
		if d.TotalCount() != h.TotalCount() {
			t.Fatalf("histogram %d: decoded %d values, want %d", k, d.TotalCount(), h.TotalCount())
		}
		want := map[int64]int64{}
		for v, c := range h.ForEachBucket {
			want[v] = c
		}
		for v, c := range d.ForEachBucket {
			if want[v] != c {
				t.Fatalf("histogram %d: bucket %d has %d, want %d", k, v, c, want[v])
			}
			delete(want, v)
		}
		if len(want) > 0 {
			t.Fatalf("histogram %d: %d buckets lost", k, len(want))
		}
		lib, err := h.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if a, b := inflated(t, got), inflated(t, string(lib)); !bytes.Equal(a, b) {
			t.Fatalf("histogram %d: header and payload differ from the library's:\n%x\n%x", k, a, b)
		}
		// Our decoder reads it too, and re-encoding it gives the same.
		back, err := decodeHist(got)
		if err != nil || e.encode(back) != got {
			t.Fatalf("histogram %d: round trip: %v", k, err)
		}
	}
	if e.encode(newHist()) != "" {
		t.Error("an empty histogram is not the empty string")
	}
}

// inflated returns the header and payload of an encoded histogram.
func inflated(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	z, err := zlib.NewReader(bytes.NewReader(b[8:]))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// BenchmarkEncodeHist encodes one second's latency histogram (5,000
// latency-like values) with histEncoder and with hdrhistogram-go's Encode.
func BenchmarkEncodeHist(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	h := newHist()
	for range 5000 {
		_ = h.RecordValue(200 + int64(rng.ExpFloat64()*3000))
	}
	b.Run("surge", func(b *testing.B) {
		var e histEncoder
		b.ReportAllocs()
		for b.Loop() {
			_ = e.encode(h)
		}
		b.ReportMetric(float64(len(e.encode(h))), "bytes")
	})
	b.Run("hdrhistogram-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = h.Encode()
		}
		s, _ := h.Encode()
		b.ReportMetric(float64(len(s)), "bytes")
	})
}

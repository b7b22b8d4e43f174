package metrics

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// The HdrHistogram V2 encoding's cookies and header size.
const (
	v2EncodingCookie   = 0x1c849303 | 0x10
	v2CompressedCookie = 0x1c849304 | 0x10
	v2HeaderBytes      = 40
)

// A histEncoder writes histograms in the HdrHistogram V2 compressed base64
// form that every HdrHistogram library decodes, as hdrhistogram-go's Encode
// does, but reusing its buffers and its zlib compressor from one histogram
// to the next: encoding allocates only the returned string. The encoder of
// hdrhistogram-go allocates a slice per bucket and a new compressor (about
// 800 KB) per histogram, which made the per-second fold cost a megabyte
// (docs/performance.md).
//
// The payload is the library's byte for byte (zig-zag LEB128 counts with
// runs of zeros); its compression is zlib's Huffman-only mode: the payload
// has few repeats for string matching to find, and the library's best
// compression clears half a megabyte of match tables per histogram. On a
// second of 5,000 latencies it is both faster and smaller
// (BenchmarkEncodeHist). A decoder does not care how a stream was
// compressed. A histEncoder is not safe for concurrent use.
type histEncoder struct {
	raw  []byte // header and payload
	zbuf bytes.Buffer
	z    *zlib.Writer
	out  []byte
}

// encode returns h encoded, or "" for an empty histogram (as encodeHist).
func (e *histEncoder) encode(h *hist) string {
	if h == nil || h.TotalCount() == 0 {
		return ""
	}
	e.raw = append(e.raw[:0], make([]byte, v2HeaderBytes)...)
	next := int64(0) // the counts index after the last one written
	for v, n := range h.ForEachBucket {
		if n == 0 {
			continue
		}
		i := countsIndex(v)
		if zeros := i - next; zeros == 1 {
			e.raw = appendZigZag(e.raw, 0)
		} else if zeros > 1 {
			e.raw = appendZigZag(e.raw, -zeros)
		}
		e.raw = appendZigZag(e.raw, n)
		next = i + 1
	}
	hd := e.raw[:v2HeaderBytes]
	binary.BigEndian.PutUint32(hd[0:], v2EncodingCookie)
	binary.BigEndian.PutUint32(hd[4:], uint32(len(e.raw)-v2HeaderBytes))
	binary.BigEndian.PutUint32(hd[8:], 0) // normalizing index offset
	binary.BigEndian.PutUint32(hd[12:], histSigFigs)
	binary.BigEndian.PutUint64(hd[16:], histLowestUs)
	binary.BigEndian.PutUint64(hd[24:], uint64(histHighestUs))
	binary.BigEndian.PutUint64(hd[32:], math.Float64bits(1))

	e.zbuf.Reset()
	e.zbuf.Write(make([]byte, 8)) // the outer cookie and length, below
	if e.z == nil {
		z, err := zlib.NewWriterLevel(&e.zbuf, zlib.HuffmanOnly)
		if err != nil {
			panic(fmt.Sprintf("metrics: zlib writer: %v", err)) // the level is valid
		}
		e.z = z
	} else {
		e.z.Reset(&e.zbuf)
	}
	// Writes to a bytes.Buffer do not fail.
	_, _ = e.z.Write(e.raw)
	_ = e.z.Close()
	c := e.zbuf.Bytes()
	binary.BigEndian.PutUint32(c[0:], v2CompressedCookie)
	binary.BigEndian.PutUint32(c[4:], uint32(len(c)-8))
	n := base64.StdEncoding.EncodedLen(len(c))
	if cap(e.out) < n {
		e.out = make([]byte, n)
	}
	e.out = e.out[:n]
	base64.StdEncoding.Encode(e.out, c)
	return string(e.out)
}

// countsIndex is the position of value v's bucket in the histograms' flat
// counts array (1 µs lowest value, three significant digits: sub-buckets
// of 2,048, halves of 1,024), as HdrHistogram numbers them.
func countsIndex(v int64) int64 {
	if v < 2048 {
		return v
	}
	b := int64(bits.Len64(uint64(v))) - 11 // the bucket: 1 for 2,048–4,095
	return (b+1)<<10 + v>>b - 1024
}

// appendZigZag appends v ZigZag-encoded in HdrHistogram's LEB128: seven
// bits a byte, at most nine bytes, the ninth holding eight bits.
func appendZigZag(b []byte, v int64) []byte {
	u := uint64(v<<1 ^ v>>63)
	for i := 0; i < 8; i++ {
		if u>>7 == 0 {
			return append(b, byte(u))
		}
		b = append(b, byte(u&0x7f|0x80))
		u >>= 7
	}
	return append(b, byte(u))
}

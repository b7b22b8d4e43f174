package sse

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// FuzzParse checks the Parser against the reference reading of the
// standard (refParse) on any input, cut into pieces at points chosen by
// seed: the events, the last event ID, the reconnection time and the
// comments must agree, and nothing may panic. Seeds are in
// testdata/fuzz/FuzzParse; run `go test -fuzz FuzzParse ./protocol/sse/`
// to search further.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"data: hello\n\n",
		"event: tick\nid: 1\ndata: {\"sent_at\":1}\n\n",
		"\xEF\xBB\xBFdata: a\r\n\r\n",
		"data: a\rdata: b\r\r",
		"id: 1\x00\ndata\n\n: ping\n\nretry: 10\n\n",
	} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(1))
	}
	f.Fuzz(func(t *testing.T, stream []byte, seed uint16) {
		want := refParse(string(stream))
		var sizes []int
		if seed != 0 {
			r := rand.New(rand.NewPCG(uint64(seed), 1))
			for range 16 {
				sizes = append(sizes, 1+r.IntN(8))
			}
		}
		got, err := parseAll(stream, sizes)
		if err != nil {
			t.Fatalf("Feed: %v", err)
		}
		if len(got.Events) == 0 && len(want.Events) == 0 {
			got.Events, want.Events = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("stream %q cut by %v:\n got %+v\nwant %+v", stream, sizes, got, want)
		}
	})
}

package live_test

import (
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/surge-load/surge/live"
	"github.com/surge-load/surge/result"
)

// BenchmarkLiveUpdate is the live page's work for one second of a run: the
// run so far (a result with five minutes of per-second series, as
// surge.Options.Watch hands it over) turned into the page's update and
// pushed to an attached browser's event stream. ns/op is the cost of a
// second of the run (docs/performance.md).
func BenchmarkLiveUpdate(b *testing.B) {
	res, err := result.ReadFile("../internal/report/testdata/base.json")
	if err != nil {
		b.Fatal(err)
	}
	// Five minutes of series: the fixture's seconds over and over.
	base := res.Series
	for len(res.Series) < 300 {
		p := base[len(res.Series)%len(base)]
		p.T = float64(len(res.Series))
		res.Series = append(res.Series, p)
	}
	srv, err := live.New(live.Config{Addr: "127.0.0.1:0", Planned: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	srv.Serve()
	defer srv.Close(time.Second)
	resp, err := http.Get("http://" + srv.Addr() + "/events")
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, resp.Body); close(done) }()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		srv.Watch(res)
	}
	b.StopTimer()
	resp.Body.Close()
	<-done
}

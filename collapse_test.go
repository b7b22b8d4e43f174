package surge_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
)

// TestCollapseWhenServerStops stops the test server mid-run, closing its
// listener and connections: the result must record the collapse after the
// peak, with connection refusals as the dominant error, and the summary
// must say so.
func TestCollapseWhenServerStops(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	stop := time.AfterFunc(3*time.Second, srv.Close)
	defer stop.Stop()

	load := executor.Open{StartRate: 100, Stages: []executor.Stage{{Duration: 7 * time.Second, Target: 100}}, MaxUsers: 50, Grace: 2 * time.Second}
	res := runPlan(t, srv.URL+"/", load)
	c := res.Collapse
	if c == nil {
		t.Fatalf("no collapse; series: %+v", res.Series)
	}
	t.Logf("collapse %+v", *c)
	if c.Kind != result.CollapseStopped || c.DominantError != "connect_refused" || c.Recovered {
		t.Errorf("collapse %+v; want stopped answering, connect_refused, not recovered", c)
	}
	// On a busy machine the peak may fall short of the offered 100/s.
	if c.PeakRPS < 50 || c.PeakRPS > 101 || c.AtS < 2.5 || c.AtS > 4 {
		t.Errorf("peak %.0f rps, collapse at %gs; want up to 100 rps and 3s", c.PeakRPS, c.AtS)
	}
	var sum bytes.Buffer
	report.Summary(&sum, res)
	line := ""
	for l := range strings.Lines(sum.String()) {
		if strings.HasPrefix(l, "Collapse: ") {
			line = l
		}
	}
	t.Logf("%s", line)
	for _, want := range []string{"peak ", " rps at ", "stopped answering ", " s later", "dominant error: connect_refused"} {
		if !strings.Contains(line, want) {
			t.Errorf("summary's collapse line %q lacks %q", line, want)
		}
	}
}

package demo

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func logStatsOf(t *testing.T, s *Service) logStats {
	t.Helper()
	rec := do(t, s, "GET", "/api/v1/logs/stats", nil)
	wantStatus(t, rec, http.StatusOK)
	return decodeAs[logStats](t, rec)
}

func TestIngestLogs(t *testing.T) {
	s := newTestService(t, Config{})

	rec := do(t, s, "POST", "/api/v1/logs", map[string]any{"lines": []string{"a", "b", "c"}})
	wantStatus(t, rec, http.StatusAccepted)
	if got := decodeAs[map[string]int](t, rec)["accepted"]; got != 3 {
		t.Fatalf("accepted %d, want 3", got)
	}

	req := httptest.NewRequest("POST", "/api/v1/logs", strings.NewReader("d\r\ne\n\nf\n"))
	req.Header.Set("Content-Type", "application/x-ndjson")
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	wantStatus(t, rec, http.StatusAccepted)
	if got := decodeAs[map[string]int](t, rec)["accepted"]; got != 3 {
		t.Fatalf("newline-delimited: accepted %d, want 3 (blank lines skipped)", got)
	}

	// A JSON body without a content type is still recognized.
	wantStatus(t, do(t, s, "POST", "/api/v1/logs", `{"lines":["g"]}`), http.StatusAccepted)

	wantError(t, do(t, s, "POST", "/api/v1/logs", map[string]any{"lines": []string{}}), http.StatusBadRequest, "no log lines")
	wantError(t, do(t, s, "POST", "/api/v1/logs", ""), http.StatusBadRequest, "no log lines")
	wantError(t, do(t, s, "POST", "/api/v1/logs", `{"lines": [1, 2]}`), http.StatusBadRequest, "invalid JSON")

	eventually(t, 2*time.Second, "all lines flushed", func() bool {
		st := logStatsOf(t, s)
		return st.Flushed == 7 && st.Buffered == 0
	})
	st := logStatsOf(t, s)
	if st.Accepted != 7 || st.Rejected != 0 || st.Capacity != DefaultLogBufferLines || st.Batches == 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestLogBufferFull stalls the flusher so the buffer fills, and checks that
// ingestion waits LogWait for space and then fails with 503.
func TestLogBufferFull(t *testing.T) {
	s := newTestService(t, Config{LogBufferLines: 10, FlushCostPerLine: time.Hour, LogWait: 50 * time.Millisecond})
	lines := make([]string, 10)
	for i := range lines {
		lines[i] = "line"
	}
	wantStatus(t, do(t, s, "POST", "/api/v1/logs", map[string]any{"lines": lines}), http.StatusAccepted)

	start := time.Now()
	wantError(t, do(t, s, "POST", "/api/v1/logs", "one more\n"), http.StatusServiceUnavailable, "log buffer full")
	if el := time.Since(start); el < 45*time.Millisecond || el > time.Second {
		t.Errorf("full buffer answered after %v, want about LogWait (50ms)", el)
	}
	wantError(t, do(t, s, "POST", "/api/v1/logs", map[string]any{"lines": append(lines, "x")}),
		http.StatusRequestEntityTooLarge, "more than the log buffer holds")

	st := logStatsOf(t, s)
	if st.Accepted != 10 || st.Buffered != 10 || st.Rejected != 1 || st.Flushed != 0 {
		t.Fatalf("stats %+v", st)
	}
	if got := counterValue(t, s, "surge_demo_log_buffer_lines"); got != 10 {
		t.Errorf("log buffer fill metric %v, want 10", got)
	}
}

// TestLogWaitForSpace checks that a request finding the buffer full waits
// for the flusher to free space rather than failing at once.
func TestLogWaitForSpace(t *testing.T) {
	s := newTestService(t, Config{LogBufferLines: 4, FlushBatch: 4, FlushCostPerLine: 10 * time.Millisecond, LogWait: 2 * time.Second})
	body := map[string]any{"lines": []string{"1", "2", "3", "4"}}
	wantStatus(t, do(t, s, "POST", "/api/v1/logs", body), http.StatusAccepted)
	start := time.Now()
	wantStatus(t, do(t, s, "POST", "/api/v1/logs", body), http.StatusAccepted)
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Errorf("second request took %v; want it to wait for the 40ms flush", el)
	}

	// Many concurrent writers: every line is accepted or rejected, and all
	// accepted lines get flushed.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			do(t, s, "POST", "/api/v1/logs", "a\nb\n")
		})
	}
	wg.Wait()
	eventually(t, 3*time.Second, "buffer drained", func() bool { return logStatsOf(t, s).Buffered == 0 })
	st := logStatsOf(t, s)
	if st.Accepted+st.Rejected != 24 || st.Flushed != st.Accepted {
		t.Fatalf("stats %+v: want accepted+rejected = 24 and flushed = accepted", st)
	}
}

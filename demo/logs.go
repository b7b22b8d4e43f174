package demo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The log ingestion endpoint models a field report: a service that
// buffers log lines in memory and bulk-inserts them into a database from
// a background flusher. Past the rate the flusher sustains, the buffer
// fills, requests wait for space, and then fail with 503.

// maxLogBodyBytes bounds one ingestion request.
const maxLogBodyBytes = 16 << 20

var (
	errLogBufferFull = errors.New("log buffer full")
	errServiceClosed = errors.New("service closed")
)

// logBuffer is a bounded FIFO of log lines drained by one flusher.
// Lines stay counted in the buffer until their bulk insert completes, so
// the capacity is exact.
type logBuffer struct {
	batch       int
	costPerLine time.Duration
	wait        time.Duration // negative: do not wait

	mu    sync.Mutex
	ring  []string
	head  int           // index of the oldest line
	n     int           // lines in the buffer
	space chan struct{} // closed and replaced when space frees up

	data chan struct{} // wakes the flusher; one slot

	accepted atomic.Uint64
	flushed  atomic.Uint64
	rejected atomic.Uint64
	batches  atomic.Uint64
}

func newLogBuffer(cfg Config) *logBuffer {
	return &logBuffer{
		batch:       cfg.FlushBatch,
		costPerLine: cfg.FlushCostPerLine,
		wait:        cfg.LogWait,
		ring:        make([]string, cfg.LogBufferLines),
		space:       make(chan struct{}),
		data:        make(chan struct{}, 1),
	}
}

func (b *logBuffer) capacity() int { return len(b.ring) }

func (b *logBuffer) buffered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// add puts all of lines into the buffer, waiting up to the configured
// wait for room. It fails with errLogBufferFull if room does not appear
// in time, and with the context's error or errServiceClosed if those end
// first. The caller ensures len(lines) <= capacity.
func (b *logBuffer) add(ctx context.Context, lines []string, done <-chan struct{}) error {
	var timeout <-chan time.Time
	for {
		b.mu.Lock()
		if b.n+len(lines) <= len(b.ring) {
			for _, l := range lines {
				b.ring[(b.head+b.n)%len(b.ring)] = l
				b.n++
			}
			b.mu.Unlock()
			b.accepted.Add(uint64(len(lines)))
			select {
			case b.data <- struct{}{}:
			default:
			}
			return nil
		}
		space := b.space
		b.mu.Unlock()

		if timeout == nil {
			if b.wait < 0 {
				b.rejected.Add(uint64(len(lines)))
				return errLogBufferFull
			}
			t := time.NewTimer(b.wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-space:
		case <-timeout:
			b.rejected.Add(uint64(len(lines)))
			return errLogBufferFull
		case <-ctx.Done():
			b.rejected.Add(uint64(len(lines)))
			return ctx.Err()
		case <-done:
			b.rejected.Add(uint64(len(lines)))
			return errServiceClosed
		}
	}
}

// run is the flusher: it bulk-inserts up to batch lines at a time,
// spending costPerLine per line, until done is closed.
func (b *logBuffer) run(done <-chan struct{}) {
	for {
		b.mu.Lock()
		k := min(b.n, b.batch)
		b.mu.Unlock()
		if k == 0 {
			select {
			case <-b.data:
				continue
			case <-done:
				return
			}
		}
		if !b.insert(k, done) {
			return
		}
		b.mu.Lock()
		for i := range k {
			b.ring[(b.head+i)%len(b.ring)] = "" // let the lines be collected
		}
		b.head = (b.head + k) % len(b.ring)
		b.n -= k
		close(b.space)
		b.space = make(chan struct{})
		b.mu.Unlock()
		b.flushed.Add(uint64(k))
		b.batches.Add(1)
	}
}

// insert stands for the bulk insert of the k oldest lines. It reports
// false if done closed first.
func (b *logBuffer) insert(k int, done <-chan struct{}) bool {
	d := time.Duration(k) * b.costPerLine
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// logStats is the body of GET /api/v1/logs/stats; all counts are lines
// except Batches.
type logStats struct {
	Accepted uint64 `json:"accepted"`
	Flushed  uint64 `json:"flushed"`
	Buffered int    `json:"buffered"`
	Rejected uint64 `json:"rejected"`
	Capacity int    `json:"capacity"`
	Batches  uint64 `json:"batches"`
}

func (b *logBuffer) stats() logStats {
	return logStats{
		Accepted: b.accepted.Load(),
		Flushed:  b.flushed.Load(),
		Buffered: b.buffered(),
		Rejected: b.rejected.Load(),
		Capacity: b.capacity(),
		Batches:  b.batches.Load(),
	}
}

// handleIngestLogs serves POST /api/v1/logs: a JSON body {"lines": [...]}
// or, for any other content type, newline-delimited text.
func (s *Service) handleIngestLogs(w http.ResponseWriter, r *http.Request) {
	lines, err := readLogLines(w, r)
	if err != nil {
		writeErr(w, err)
		return
	}
	if len(lines) == 0 {
		writeError(w, http.StatusBadRequest, "no log lines in request")
		return
	}
	if c := s.logs.capacity(); len(lines) > c {
		writeError(w, http.StatusRequestEntityTooLarge, "request has %d lines, more than the log buffer holds (%d)", len(lines), c)
		return
	}
	switch err := s.logs.add(r.Context(), lines, s.done); {
	case errors.Is(err, errLogBufferFull):
		writeError(w, http.StatusServiceUnavailable, "log buffer full: no room for %d lines after waiting %v", len(lines), max(s.logs.wait, 0))
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, "ingest logs: %v", err)
	default:
		writeJSON(w, http.StatusAccepted, map[string]int{"accepted": len(lines)})
	}
}

// handleLogStats serves GET /api/v1/logs/stats.
func (s *Service) handleLogStats(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.logs.stats())
}

// readLogLines reads the lines of an ingestion request.
func readLogLines(w http.ResponseWriter, r *http.Request) ([]string, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLogBodyBytes))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", maxLogBodyBytes)
		}
		return nil, errorf(http.StatusBadRequest, "read request body: %v", err)
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	isJSON := mt == "application/json" ||
		(mt == "" && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")))
	if isJSON {
		var req struct {
			Lines []string `json:"lines"`
		}
		if err := unmarshalBody(body, &req); err != nil {
			return nil, err
		}
		return req.Lines, nil
	}
	var lines []string
	for l := range strings.SplitSeq(string(body), "\n") {
		if l = strings.TrimSuffix(l, "\r"); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

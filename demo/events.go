package demo

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server-sent events model a field report: a notification stream whose
// delivery delay is measured under many subscribers. Every event carries
// "sent_at" (unix nanoseconds at publication) in its JSON data.
//
// Subscribers cost one handler goroutine each and nothing else: events
// live in one shared history ring, and a single wake channel, closed and
// replaced on every event or keep-alive, tells all subscribers to look.
// Each event is framed for the wire once, when it is published, and the
// ring is read under a read lock, so that a wake of many thousands of
// subscribers neither formats the event once per subscriber nor queues
// them on one mutex.

const (
	// eventRetryMillis is sent once per stream as "retry:".
	eventRetryMillis = 1000
	// eventWriteTimeout drops a subscriber that stops reading.
	eventWriteTimeout = 30 * time.Second
	// eventBatch bounds the events copied out of the ring at a time.
	eventBatch = 256
)

// Event types.
const (
	eventTick      = "tick"
	eventBroadcast = "broadcast"
)

// event is one published event; data is one line of compact JSON, and
// frame is the event as written on every stream.
type event struct {
	id    uint64
	kind  string
	data  []byte
	frame []byte
}

// eventHub publishes events to every subscriber and keeps the last few
// for Last-Event-ID replay.
type eventHub struct {
	m *metrics

	mu      sync.RWMutex
	ring    []event // event id lives at ring[id%len(ring)]
	lastID  uint64  // 0 before the first event
	pingGen uint64  // bumped on every keep-alive
	wake    chan struct{}
	closed  bool
}

func newEventHub(history int, m *metrics) *eventHub {
	return &eventHub{m: m, ring: make([]event, history), wake: make(chan struct{})}
}

// wakeLocked wakes every subscriber. h.mu is held.
func (h *eventHub) wakeLocked() {
	close(h.wake)
	h.wake = make(chan struct{})
}

// publish appends an event whose data is payload plus "sent_at", and
// returns its id (0 if the hub is closed).
func (h *eventHub) publish(kind string, payload map[string]any) (uint64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0, errServiceClosed
	}
	payload["sent_at"] = time.Now().UnixNano()
	data, err := json.Marshal(payload) // compact: one line, as SSE needs
	if err != nil {
		return 0, fmt.Errorf("encode %s event: %w", kind, err)
	}
	h.lastID++
	frame := fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", h.lastID, kind, data)
	h.ring[h.lastID%uint64(len(h.ring))] = event{id: h.lastID, kind: kind, data: data, frame: frame}
	h.wakeLocked()
	h.m.ssePublished.Inc()
	return h.lastID, nil
}

// ping asks every subscriber to send a keep-alive comment.
func (h *eventHub) ping() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.pingGen++
		h.wakeLocked()
	}
}

// close ends every stream.
func (h *eventHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		h.wakeLocked()
	}
}

// hubState is what a subscriber sees on one look at the hub.
type hubState struct {
	events  []event
	dropped uint64 // events lost because the subscriber fell behind the ring
	pingGen uint64
	wake    <-chan struct{}
	closed  bool
}

// since appends to buf the events after id after (at most eventBatch),
// and returns them with the state to wait on.
func (h *eventHub) since(after uint64, buf []event) hubState {
	h.mu.RLock()
	defer h.mu.RUnlock()
	st := hubState{pingGen: h.pingGen, wake: h.wake, closed: h.closed}
	if after >= h.lastID {
		st.events = buf
		return st
	}
	oldest := uint64(1)
	if h.lastID > uint64(len(h.ring)) {
		oldest = h.lastID - uint64(len(h.ring)) + 1
	}
	first := after + 1
	if first < oldest {
		st.dropped = oldest - first
		first = oldest
	}
	last := min(h.lastID, first+eventBatch-1)
	for id := first; id <= last; id++ {
		buf = append(buf, h.ring[id%uint64(len(h.ring))])
	}
	st.events = buf
	return st
}

// current returns the id of the latest event.
func (h *eventHub) current() uint64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.lastID
}

// run publishes ticks every interval and keep-alives every keepAlive until
// done is closed, then closes the hub.
func (h *eventHub) run(interval, keepAlive time.Duration, done <-chan struct{}) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	ka := time.NewTicker(keepAlive)
	defer ka.Stop()
	var seq uint64
	for {
		select {
		case <-tick.C:
			seq++
			_, _ = h.publish(eventTick, map[string]any{"seq": seq})
		case <-ka.C:
			h.ping()
		case <-done:
			h.close()
			return
		}
	}
}

// handleSubscribe serves GET /api/v1/events as a text/event-stream. With a
// Last-Event-ID header it first replays the missed events still in the
// history ring.
func (s *Service) handleSubscribe(w http.ResponseWriter, r *http.Request) {
	h := s.events
	rc := http.NewResponseController(w)
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if rec, ok := w.(*responseRecorder); ok {
		rec.stream = true
		rec.leaveInFlight()
	}
	s.m.sseSubscriptions.Inc()
	defer s.m.sseSubscriptions.Dec()

	after := h.current()
	if v := strings.TrimSpace(r.Header.Get("Last-Event-ID")); v != "" {
		if id, err := strconv.ParseUint(v, 10, 64); err == nil && id < after {
			after = id
		}
	}
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", eventRetryMillis); err != nil {
		return
	}
	if rc.Flush() != nil {
		return
	}

	var buf []event
	st := h.since(after, buf)
	pingGen := st.pingGen
	for {
		if st.closed {
			return
		}
		_ = rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
		wrote := false
		if st.dropped > 0 {
			s.m.sseDropped.Add(float64(st.dropped))
		}
		for _, e := range st.events {
			if err := writeEvent(w, e); err != nil {
				return
			}
			after, wrote = e.id, true
		}
		if st.pingGen != pingGen {
			pingGen = st.pingGen
			if !wrote {
				if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
					return
				}
				wrote = true
			}
		}
		if wrote && rc.Flush() != nil {
			return
		}
		if len(st.events) < eventBatch {
			select {
			case <-st.wake:
			case <-r.Context().Done():
				return
			}
		}
		buf = st.events[:0]
		st = h.since(after, buf)
	}
}

// writeEvent writes one event in SSE framing.
func writeEvent(w io.Writer, e event) error {
	_, err := w.Write(e.frame)
	return err
}

// handleBroadcast serves POST /api/v1/events {"data": any}: it publishes
// a "broadcast" event to every subscriber.
func (s *Service) handleBroadcast(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Data json.RawMessage `json:"data"`
	}
	if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	if req.Data == nil {
		req.Data = json.RawMessage("null")
	}
	id, err := s.events.publish(eventBroadcast, map[string]any{"data": req.Data})
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "broadcast: %v", err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]uint64{"id": id})
}

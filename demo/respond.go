package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// maxJSONBodyBytes bounds the body of every JSON request except log
// ingestion, which has maxLogBodyBytes.
const maxJSONBodyBytes = 1 << 20

// errorBody is the JSON body of every error response.
type errorBody struct {
	Error string `json:"error"`
}

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Error: "encode response: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError writes {"error": msg} with the given status.
func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, errorBody{Error: fmt.Sprintf(format, args...)})
}

// httpError is an error that knows the status it should be answered with.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// errorf returns an *httpError with a formatted message.
func errorf(status int, format string, args ...any) error {
	return &httpError{status: status, msg: fmt.Sprintf(format, args...)}
}

// writeErr answers err: with its own status if it is an *httpError, else
// with 500.
func writeErr(w http.ResponseWriter, err error) {
	if he, ok := errors.AsType[*httpError](err); ok {
		writeError(w, he.status, "%s", he.msg)
		return
	}
	writeError(w, http.StatusInternalServerError, "%s", err.Error())
}

// decodeJSON reads one JSON value of at most limit bytes from r's body
// into v, answering 400 or 413 errors as *httpError.
func decodeJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", limit)
		}
		return errorf(http.StatusBadRequest, "read request body: %v", err)
	}
	return unmarshalBody(body, v)
}

// unmarshalBody decodes a complete JSON body into v.
func unmarshalBody(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return errorf(http.StatusBadRequest, "request body is empty, want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "invalid JSON body: %v", err)
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, "invalid JSON body: data after the first value")
	}
	return nil
}

// flexID is an integer id in a request body. It accepts a JSON number or a
// string of digits, since load-test scripts often carry ids as strings.
// Absent or null leaves it 0.
type flexID int64

// UnmarshalJSON implements json.Unmarshaler.
func (id *flexID) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if s == "null" {
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = unq
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("id %s is not an integer", b)
	}
	*id = flexID(n)
	return nil
}

// responseRecorder wraps the ResponseWriter of every request to learn the
// status and endpoint for metrics. It keeps http.Flusher and
// http.ResponseController working through Flush and Unwrap.
type responseRecorder struct {
	http.ResponseWriter
	status   int
	endpoint string // route pattern, set by the route wrapper
	stream   bool   // a long-lived stream; not timed
	left     bool   // already left the in-flight gauge
	leave    func() // leaves the in-flight gauge
}

func (rec *responseRecorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *responseRecorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.ResponseWriter.Write(b)
}

// Flush implements http.Flusher.
func (rec *responseRecorder) Flush() {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	_ = http.NewResponseController(rec.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *responseRecorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// leaveInFlight removes the request from the in-flight gauge, once: either
// when it ends or, for a stream, when streaming starts.
func (rec *responseRecorder) leaveInFlight() {
	if !rec.left {
		rec.left = true
		rec.leave()
	}
}

// statusCode returns the status written so far, 200 if none.
func (rec *responseRecorder) statusCode() int {
	if rec.status == 0 {
		return http.StatusOK
	}
	return rec.status
}

package errclass

import (
	"errors"
	"fmt"
	"testing"
)

// HTTP/2 errors of net/http's bundled client are unexported types; these
// are their messages.
func TestClassifyHTTP2(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want Class
	}{
		{"stream error: stream ID 1; INTERNAL_ERROR; received from peer", Reset},
		{"stream error: stream ID 3; REFUSED_STREAM; received from peer", Reset},
		{"stream error: stream ID 1; PROTOCOL_ERROR; invalid header field value", Other}, // ours, not the peer's
		{`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug=""`, Closed},
	} {
		err := fmt.Errorf("reading response: %w", errors.New(tc.msg))
		if got := Classify(err, PhaseRequest); got != tc.want {
			t.Errorf("Classify(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

package sse

// An Event is one dispatched server-sent event. Its slices point into the
// Parser that produced it and stay valid only until the Parser's next
// Feed or Reset: copy what must outlive that. The slices must not be
// modified.
type Event struct {
	// Type is the event type: the last "event:" field of the event, or
	// "message" if it had none.
	Type []byte
	// Data is the event's data: its "data:" fields joined by line feeds.
	Data []byte
	// ID is the stream's last event ID as of this event: the last "id:"
	// field seen so far in the stream, not only in this event. Empty if
	// no event carried one, or the last one was empty.
	ID []byte
}

// messageType is the Type of an event without an "event:" field.
var messageType = []byte("message")

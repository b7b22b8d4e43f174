package sse

import (
	"time"
)

// JSONTime returns a Request.SentAt that reads an event's send time from
// its JSON data: the number at path (object keys and array indexes
// separated by dots, such as "sent_at", "meta.ts" or "items.0.ts"), counted in unit since the Unix epoch — time.Nanosecond for
// the "sent_at" of surge's demo service, time.Millisecond for JavaScript's
// Date.now(). An event whose data has no number there has no send time.
// Reading it allocates nothing.
func JSONTime(path string, unit time.Duration) func(data []byte) (time.Time, bool) {
	if unit <= 0 {
		unit = time.Nanosecond
	}
	return func(data []byte) (time.Time, bool) {
		i, f, isInt, ok := jsonNumber(data, path)
		if !ok {
			return time.Time{}, false
		}
		return unixTime(i, f, isInt, unit), true
	}
}

// TextTime returns a Request.SentAt for events whose whole data is a
// number of units since the Unix epoch.
func TextTime(unit time.Duration) func(data []byte) (time.Time, bool) {
	if unit <= 0 {
		unit = time.Nanosecond
	}
	return func(data []byte) (time.Time, bool) {
		i, f, isInt, ok := jsonNumber(data, "")
		if !ok {
			return time.Time{}, false
		}
		return unixTime(i, f, isInt, unit), true
	}
}

// unixTime converts a count of units since the epoch, given exactly as i
// if isInt, and as f otherwise, to a time.
func unixTime(i int64, f float64, isInt bool, unit time.Duration) time.Time {
	if !isInt {
		return time.Unix(0, int64(f*float64(unit)))
	}
	return time.Unix(0, i*int64(unit))
}

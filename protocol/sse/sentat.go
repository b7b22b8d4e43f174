package sse

import (
	"time"
	"unsafe"

	"github.com/tidwall/gjson"
)

// JSONTime returns a Request.SentAt that reads an event's send time from
// its JSON data: the number at path (gjson syntax, such as "sent_at" or
// "meta.ts"), counted in unit since the Unix epoch — time.Nanosecond for
// the "sent_at" of surge's demo service, time.Millisecond for JavaScript's
// Date.now(). An event whose data has no number there has no send time.
// Reading it allocates nothing.
func JSONTime(path string, unit time.Duration) func(data []byte) (time.Time, bool) {
	if unit <= 0 {
		unit = time.Nanosecond
	}
	return func(data []byte) (time.Time, bool) {
		if len(data) == 0 {
			return time.Time{}, false
		}
		// The string shares data's memory; the result is used only here.
		v := gjson.Get(unsafe.String(&data[0], len(data)), path)
		if v.Type != gjson.Number {
			return time.Time{}, false
		}
		return unixTime(v.Int(), v.Float(), unit), true
	}
}

// TextTime returns a Request.SentAt for events whose whole data is a
// number of units since the Unix epoch.
func TextTime(unit time.Duration) func(data []byte) (time.Time, bool) {
	if unit <= 0 {
		unit = time.Nanosecond
	}
	return func(data []byte) (time.Time, bool) {
		v := gjson.Parse(unsafe.String(unsafe.SliceData(data), len(data)))
		if v.Type != gjson.Number || len(v.Raw) != len(data) {
			return time.Time{}, false
		}
		return unixTime(v.Int(), v.Float(), unit), true
	}
}

// unixTime converts a count of units since the epoch, given exactly as i
// or with a fraction as f, to a time.
func unixTime(i int64, f float64, unit time.Duration) time.Time {
	if float64(i) != f {
		return time.Unix(0, int64(f*float64(unit)))
	}
	return time.Unix(0, i*int64(unit))
}

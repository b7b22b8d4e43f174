package result

import (
	"strings"
	"testing"
)

// A file that is not a result says what is wrong in the user's terms:
// where the JSON breaks, or which field holds the wrong kind of value,
// never Go's type names.
func TestDecodeSaysWhatIsWrong(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "the file is empty"},
		{"  \n", "the file is empty"},
		{`{"schema_version": 2`, "the JSON ends early"},
		{"target: http://x\n", "not JSON at line 1, column 2"},
		{"{\n \"schema_version\": 2,\n \"totals\": {\"requests\": 1,}\n}", "not JSON at line 3, column 27"},
		{"[1]", "the document holds a JSON array"},
		{`{"schema_version": "2"}`, "field schema_version holds a JSON string"},
	} {
		_, err := Decode([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "Go value") {
			t.Errorf("Decode(%q) = %v; want an error saying %q", c.src, err, c.want)
		}
	}
}

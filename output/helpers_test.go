package output_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	common "go.opentelemetry.io/proto/otlp/common/v1"

	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/output"
)

type mpbKeyValue = common.KeyValue

var classicBuckets = livemetrics.LatencyBuckets

func readLines(t *testing.T, path string) []output.Line {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []output.Line
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l output.Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, l)
	}
	return out
}

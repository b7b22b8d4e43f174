package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// TestQuickstart runs the quickstart, shortened, in an empty directory, as a
// newcomer would on a fresh clone: it must finish on its own and leave the
// result and the report behind.
func TestQuickstart(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(surgeBin, "quickstart", "--duration", "4s", "--quiet")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("quickstart: %v\n%s", err, out)
	}
	res, err := result.ReadFile(filepath.Join(dir, quickstartResult))
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Requests < 10 || len(res.Endpoints) < 3 {
		t.Errorf("quickstart measured %d requests over %d endpoints", res.Totals.Requests, len(res.Endpoints))
	}
	page, err := os.ReadFile(filepath.Join(dir, quickstartReport))
	if err != nil || !strings.Contains(string(page), "<html") {
		t.Errorf("no HTML report: %v", err)
	}
	for _, want := range []string{"list folder", "What you saw", "Next:"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("quickstart output lacks %q:\n%s", want, out)
		}
	}
}

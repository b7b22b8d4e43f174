package yamlfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// TestFileCompilesWithoutReadingAgain: a File is read once; it compiles
// with other options after the file is gone, and its problems of form
// come back, placed, from every Compile.
func TestFileCompilesWithoutReadingAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	src := "target: http://127.0.0.1:1\nscenarios:\n  a:\n    load: {users: 2, duration: 10s}\n    tasks: [{get: /}]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := yamlfile.Open(path, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for _, users := range []int{3, 7} {
		plan, err := f.Compile(scenario.Options{Users: users})
		if err != nil {
			t.Fatal(err)
		}
		if got := plan.Scenarios[0].Load.PeakUsers(); got != users {
			t.Errorf("compiled with Users %d: peak %d", users, got)
		}
	}

	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(strings.Replace(src, "users: 2", "users: many", 1)), 0o644)
	f, err = yamlfile.Open(bad, scenario.Options{})
	if err != nil {
		t.Fatalf("a file with a problem of form does not open: %v", err)
	}
	for range 2 {
		if _, err := f.Compile(scenario.Options{}); err == nil || !strings.Contains(err.Error(), "bad.yaml:4:") {
			t.Errorf("compile: %v; want the problem at bad.yaml:4", err)
		}
	}
}

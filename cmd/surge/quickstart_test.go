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

// TestQuickstartFromAFreshClone does what the README says on a fresh
// clone of the committed tree: go run ./cmd/surge quickstart (shortened).
// It must exit 0, tell the newcomer the command that works from there, and
// leave git status clean.
func TestQuickstartFromAFreshClone(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	top, err := exec.Command(git, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git work tree: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "surge")
	if out, err := exec.Command(git, "clone", "--quiet", "--no-hardlinks", strings.TrimSpace(string(top)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	cmd := exec.Command("go", "run", "./cmd/surge", "quickstart", "--duration", "4s", "--quiet")
	cmd.Dir = clone
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./cmd/surge quickstart: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "`go run ./cmd/surge demo`") {
		t.Errorf("the quickstart's next step is not the command that works from a clone:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(clone, quickstartReport)); err != nil {
		t.Errorf("no report: %v", err)
	}
	st := exec.Command(git, "status", "--porcelain", "--untracked-files=all")
	st.Dir = clone
	status, err := st.Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(strings.TrimSpace(string(status))) != 0 {
		t.Errorf("git status after the quickstart is not clean:\n%s", status)
	}
}

package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Result fixtures of the report package: real runs against the demo service.
var (
	baseResult = filepath.Join("..", "..", "internal", "report", "testdata", "base.json")
	newResult  = filepath.Join("..", "..", "internal", "report", "testdata", "new.json")
)

func TestReportWritesHTMLCSVAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	csvDir := filepath.Join(dir, "csv")
	stdout, stderr, code := runSurge(t, "report", newResult, "-o", html, "--csv", csvDir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `id="surge-data"`) || !strings.Contains(stdout, "Report written to "+html) {
		t.Errorf("report.html: %v; stdout %q", err, stdout)
	}
	for _, name := range []string{"endpoints.csv", "series.csv", "errors.csv"} {
		b, err := os.ReadFile(filepath.Join(csvDir, name))
		if err != nil || strings.Count(string(b), "\n") < 2 {
			t.Errorf("%s: %v, %d lines", name, err, strings.Count(string(b), "\n"))
		}
	}
	md, _, code := runSurge(t, "report", newResult, "--md")
	if code != exitOK || !strings.Contains(md, "| GET /api/v1/folders/1 | 2157 | 35 (1.6%) | 143.8 | 29.3ms |") {
		t.Errorf("--md: exit %d\n%s", code, md)
	}
	page2, _, code := runSurge(t, "report", newResult, "-o", "-")
	if code != exitOK || !strings.HasPrefix(page2, "<!doctype html>") {
		t.Errorf("-o -: exit %d, %.40q", code, page2)
	}
}

// TestReportOfFindMax writes the exports of a find-max result: the capacity
// table in capacity.csv and in the Markdown summary.
func TestReportOfFindMax(t *testing.T) {
	findMax := filepath.Join("..", "..", "internal", "report", "testdata", "findmax.json")
	dir := t.TempDir()
	stdout, stderr, code := runSurge(t, "report", findMax, "--csv", dir)
	if code != exitOK || !strings.Contains(stdout, "CSV written to "+filepath.Join(dir, "capacity.csv")) {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "capacity.csv"))
	if err != nil || strings.Count(string(b), "\n") != 9 || !strings.HasPrefix(string(b), "Level (arrivals/s),Phase,") {
		t.Errorf("capacity.csv: %v\n%s", err, b)
	}
	md, _, code := runSurge(t, "report", findMax, "--md")
	for _, want := range []string{"**Capacity** (open model, arrivals per second;", "| 155/s | 155.0 rps |", "**Verdict:** maximum sustainable load 155/s"} {
		if code != exitOK || !strings.Contains(md, want) {
			t.Errorf("--md: exit %d, lacks %q:\n%s", code, want, md)
		}
	}
	// A result without a search has no capacity.csv.
	dir = t.TempDir()
	if _, stderr, code := runSurge(t, "report", newResult, "--csv", dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "capacity.csv")); err == nil {
		t.Error("capacity.csv written for a result without a search")
	}
}

func TestCompareExitCodes(t *testing.T) {
	stdout, stderr, code := runSurge(t, "compare", baseResult, newResult)
	if code != exitOK || !strings.Contains(stdout, "p50") || !strings.Contains(stdout, "+29.4% worse") || !strings.Contains(stdout, "~ not significant") {
		t.Errorf("compare: exit %d\n%s\n%s", code, stdout, stderr)
	}
	html := filepath.Join(t.TempDir(), "compare.html")
	// p99 rose 58%, beyond the noise: a regression past +10%.
	stdout, stderr, code = runSurge(t, "compare", baseResult, newResult, "--fail-on", "p99>+10%", "--fail-on", "rps<-5%", "-o", html)
	if code != exitThresholds || !strings.Contains(stderr, "regression past --fail-on: p99>+10%") || strings.Contains(stderr, "rps<-5%") {
		t.Errorf("--fail-on p99>+10%%: exit %d, stderr %q; want 3 naming p99 only", code, stderr)
	}
	if !strings.Contains(stdout, "FAIL  p99>+10%") || !strings.Contains(stdout, "ok    rps<-5%") {
		t.Errorf("verdicts missing:\n%s", stdout)
	}
	if _, err := os.Stat(html); err != nil {
		t.Errorf("compare.html not written: %v", err)
	}
	// p95 rose 128% but within the noise of two 15 s runs with stalls: not failed.
	if _, stderr, code := runSurge(t, "compare", baseResult, newResult, "--fail-on", "p95>+10%"); code != exitOK {
		t.Errorf("--fail-on p95>+10%% within noise: exit %d, %s", code, stderr)
	}
	// Against itself nothing changed.
	if _, stderr, code := runSurge(t, "compare", baseResult, baseResult, "--fail-on", "p99>+0%", "--fail-on", "errors>+0pp"); code != exitOK {
		t.Errorf("self-compare: exit %d, %s", code, stderr)
	}

	bad := []struct {
		args []string
		msg  string
	}{
		{[]string{"compare", baseResult}, "two or more result files"},
		{[]string{"compare", baseResult, "/nonexistent.json"}, "read result"},
		{[]string{"compare", baseResult, newResult, "--fail-on", "p95>10ms"}, "needs a unit"},
		{[]string{"compare", baseResult, newResult, "--fail-on", "latency>+10%"}, "unknown metric"},
		{[]string{"compare", baseResult, newResult, "--fail-on", "p95>+1pp"}, "errors only"},
		{[]string{"compare", baseResult, newResult, "--fail-on", "GET /nope:p95>+10%"}, "no endpoint"},
		{[]string{"report", newResult, "--bogus"}, "unknown flag"},
	}
	for _, c := range bad {
		stdout, stderr, code := runSurge(t, c.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exitInvalid || len(lines) != 1 || !strings.Contains(stderr, c.msg) || stdout != "" {
			t.Errorf("surge %s: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", strings.Join(c.args, " "), code, stdout, stderr, c.msg)
		}
	}
}

func TestRunWritesReport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	html := filepath.Join(t.TempDir(), "run.html")
	stdout, stderr, code := runSurge(t, "run", "--url", srv.URL+"/ok", "--rate", "100/s", "--duration", "1s", "--report", html, "-q")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "GET /ok") || !strings.Contains(stdout, "Report written to "+html) {
		t.Errorf("--report: %v\n%s", err, stdout)
	}
}

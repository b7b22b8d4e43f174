package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// outputsOf runs surge on a result and returns every output built from it:
// the JSON itself, the summary, the HTML, the Markdown and the CSV files.
func outputsOf(t *testing.T, res string) map[string]string {
	t.Helper()
	dir := filepath.Dir(res)
	out := map[string]string{}
	b, _ := os.ReadFile(res)
	out["json"] = string(b)
	stdout, stderr, code := runSurge(t, "report", res)
	if code != 0 {
		t.Fatalf("surge report: exit %d: %s", code, stderr)
	}
	out["summary"] = stdout
	if out["md"], stderr, code = runSurge(t, "report", res, "--md"); code != 0 {
		t.Fatalf("surge report --md: exit %d: %s", code, stderr)
	}
	html := filepath.Join(dir, "r.html")
	csvDir := filepath.Join(dir, "csv")
	if _, stderr, code = runSurge(t, "report", res, "-o", html, "--csv", csvDir); code != 0 {
		t.Fatalf("surge report -o --csv: exit %d: %s", code, stderr)
	}
	b, _ = os.ReadFile(html)
	out["html"] = string(b)
	for _, f := range []string{"endpoints.csv", "errors.csv", "series.csv"} {
		b, _ = os.ReadFile(filepath.Join(csvDir, f))
		out[f] = string(b)
	}
	return out
}

// Secrets in the URL, the target and the headers appear in no output: not
// the terminal, the JSON, the HTML, the Markdown or the CSV.
func TestSecretsRedactedEverywhere(t *testing.T) {
	var sawToken string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawToken = r.URL.Query().Get("token")
		if r.URL.Query().Get("fail") != "" {
			w.WriteHeader(500)
			fmt.Fprintf(w, "bad token=TOKSECRET for http://bob:PASSWORD9@%s/", r.Host)
		}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	res := filepath.Join(dir, "res.json")
	u := "http://bob:PASSWORD9@" + host + "/x?token=TOKSECRET&page=2&fail=1"
	stdout, stderr, code := runSurge(t, "run", "--url", u, "-H", "X-Session-Token: HEADERSECRET", "-H", "Cookie: sid=COOKIESECRET",
		"--output", "influxdb=http://bob:PASSWORD9@127.0.0.1:1/api/v2/write?org=o&bucket=b&token=TOKSECRET",
		"--users", "1", "--duration", "300ms", "-q", "--out", res, "--report", filepath.Join(dir, "run.html"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if sawToken != "TOKSECRET" {
		t.Fatalf("the request did not carry its token (%q)", sawToken)
	}
	outs := outputsOf(t, res)
	outs["run stdout"], outs["run stderr"] = stdout, stderr
	b, _ := os.ReadFile(filepath.Join(dir, "run.html"))
	outs["run html"] = string(b)

	// A scenario file whose target holds a password.
	file := filepath.Join(dir, "s.yaml")
	os.WriteFile(file, []byte(fmt.Sprintf(`target: http://bob:PASSWORD9@%s
defaults:
  headers: {X-Api-Key: HEADERSECRET, Accept: text/plain}
scenarios:
  s:
    load: {users: 1, duration: 300ms}
    tasks:
      - get: /y?api_key=TOKSECRET
`, host)), 0o644)
	res2 := filepath.Join(dir, "res2.json")
	stdout, stderr, code = runSurge(t, "run", file, "-q", "--out", res2)
	if code != 0 {
		t.Fatalf("scenario run: exit %d: %s", code, stderr)
	}
	for k, v := range outputsOf(t, res2) {
		outs["scenario "+k] = v
	}
	outs["scenario stdout"] = stdout
	for name, text := range outs {
		for _, secret := range []string{"PASSWORD9", "TOKSECRET", "HEADERSECRET", "COOKIESECRET"} {
			if strings.Contains(text, secret) {
				i := strings.Index(text, secret)
				t.Errorf("%s shows %s: …%s…", name, secret, text[max(0, i-80):min(len(text), i+40)])
			}
		}
	}
	if !strings.Contains(outs["summary"], "REDACTED") && !strings.Contains(outs["json"], "REDACTED") {
		t.Error("no REDACTED in the outputs")
	}
	if !strings.Contains(outs["scenario json"], `"Accept": "text/plain"`) {
		t.Error("a plain header was redacted too")
	}
}

// A hostile server's text (escape sequences that clear the screen, retitle
// the terminal and fake a verdict) reaches no output raw, and CSV cells
// that a spreadsheet would run as formulas are defused.
func TestNetworkTextEscaped(t *testing.T) {
	hostile := "\x1b[2J\x1b]0;pwned\x07\x1b[32mAll thresholds PASS\u202e"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(503)
		fmt.Fprint(w, hostile)
	}))
	defer srv.Close()
	dir := t.TempDir()
	res := filepath.Join(dir, "res.json")
	stdout, stderr, code := runSurge(t, "run", "--url", srv.URL+"/", "--users", "1", "--duration", "300ms", "-q", "--out", res)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	outs := outputsOf(t, res)
	outs["run stdout"] = stdout
	for name, text := range outs {
		if strings.ContainsAny(text, "\x1b\x07\u202e") {
			t.Errorf("%s holds raw control characters from the server: %q", name, text)
		}
	}
	if !strings.Contains(outs["summary"], `\x1b[2J`) || !strings.Contains(outs["errors.csv"], `\x1b]0;pwned\a`) {
		t.Errorf("the server's text is not shown escaped:\n%s\n%s", outs["summary"], outs["errors.csv"])
	}

	// A hostile result file built by the test: formulas in names and
	// messages, control characters everywhere.
	var r result.Result
	b, _ := os.ReadFile(res)
	json.Unmarshal(b, &r)
	r.Run.Target = "http://u:PASSWORD9@h/\x1b[31m"
	r.Endpoints[0].Name = "=HYPERLINK(\"http://evil/\",\"click\")"
	r.Errors[0].Samples[0].Message = "@SUM(1+1)\x1b[2J"
	r.Errors[0].Class = "+cmd|' /C calc'!A0"
	evil := filepath.Join(dir, "evil", "res.json")
	os.Mkdir(filepath.Dir(evil), 0o755)
	b, _ = json.Marshal(&r)
	os.WriteFile(evil, b, 0o644)
	outs = outputsOf(t, evil)
	for name, text := range outs {
		if name == "json" {
			continue // the hostile file itself
		}
		if strings.ContainsAny(text, "\x1b\x07") || strings.Contains(text, "PASSWORD9") {
			t.Errorf("%s of a hostile result holds raw control characters or the password: %q", name, text)
		}
	}
	for _, f := range []string{"endpoints.csv", "errors.csv"} {
		for _, line := range strings.Split(outs[f], "\n") {
			for _, cell := range strings.Split(line, ",") {
				c := strings.TrimPrefix(cell, `"`)
				if c != "" && strings.ContainsRune("=+@", rune(c[0])) {
					t.Errorf("%s: cell %q starts a formula", f, cell)
				}
			}
		}
	}
}

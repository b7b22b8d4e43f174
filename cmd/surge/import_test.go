package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportCommand runs surge import as a user would: a curl command to a
// file that surge validate accepts, the demo's OpenAPI description to
// standard output, and bad input of each importer, which exits 2 with
// where and what.
func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "curl.yaml")
	_, stderr, code := runSurge(t, "import", "curl", `curl -X POST http://127.0.0.1:8080/api/v1/users -H 'Content-Type: application/json' -d '{"userName":"ann"}'`, "-o", out)
	if code != 0 || !strings.Contains(stderr, "wrote "+out) {
		t.Fatalf("import curl: exit %d, %s", code, stderr)
	}
	if stdout, stderr, code := runSurge(t, "validate", out); code != 0 || !strings.Contains(stdout, "valid") {
		t.Fatalf("validate the import: exit %d, %s%s", code, stdout, stderr)
	}
	stdout, stderr, code := runSurge(t, "import", "openapi", filepath.Join("..", "..", "demo", "openapi.yaml"))
	if code != 0 || !strings.HasPrefix(stdout, "# Imported by surge import openapi from openapi.yaml") || !strings.Contains(stdout, "name: createFolder") {
		t.Fatalf("import openapi: exit %d, %s\n%s", code, stderr, stdout)
	}
	har := filepath.Join(dir, "bad.har")
	if err := os.WriteFile(har, []byte("{\"log\": {\n  \"entries\": [,]}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	postman := filepath.Join(dir, "p.json")
	if err := os.WriteFile(postman, []byte(`{"info": {"name": "x"}, "item": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "har", har}, "bad.har:2:15: broken JSON"},
		{[]string{"import", "curl", "curl --nope http://x/"}, "curl command:1:6: curl option --nope is not understood"},
		{[]string{"import", "postman", postman}, "p.json: item: the collection has no requests"},
		{[]string{"import", "openapi", filepath.Join(dir, "missing.yaml")}, "read " + filepath.Join(dir, "missing.yaml") + ": no such file or directory"},
	} {
		_, stderr, code := runSurge(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

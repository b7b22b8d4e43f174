package importer_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/scenario"
)

// TestCurlMultipartForm imports -F fields, one from a file, runs the file
// and checks that the server parsed every field from the body sent.
func TestCurlMultipartForm(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("line one\nline two"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		for k, v := range r.MultipartForm.Value {
			got[k] = v[0]
		}
		mu.Unlock()
	}))
	defer srv.Close()
	t.Chdir(dir)
	f, err := importer.Curl([]string{`curl -F name=ann -F 'note=<note.txt' ` + srv.URL + `/upload`}, importer.CurlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := runFile(t, f, srv.URL, scenario.Options{}, 0)
	noFailures(t, res, f)
	mu.Lock()
	defer mu.Unlock()
	if got["name"] != "ann" || got["note"] != "line one\nline two" {
		t.Errorf("the server parsed %q, want name=ann and the note file\n%s", got, f.YAML())
	}
}

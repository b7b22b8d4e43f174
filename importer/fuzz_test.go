package importer_test

import (
	"strings"
	"testing"

	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// checkImport fails unless an import either failed with an *importer.Error
// or wrote a file that surge validate accepts.
func checkImport(t *testing.T, f *importer.File, err error) {
	t.Helper()
	if err != nil {
		if _, ok := err.(*importer.Error); !ok {
			t.Fatalf("an error that is not an *importer.Error: %T %v", err, err)
		}
		return
	}
	if _, err := yamlfile.Compile("imported.yaml", f.YAML(), scenario.Options{Target: "http://127.0.0.1:9", Env: map[string]string{}}); err != nil {
		t.Fatalf("the imported file is not valid: %v\n%s", err, f.YAML())
	}
}

// The seeds of each fuzz test are in testdata/fuzz/<name>.

func FuzzCurl(f *testing.F) {
	f.Add(docsCommands)
	f.Fuzz(func(t *testing.T, src string) {
		file, err := importer.Curl([]string{src}, importer.CurlOptions{ReadFile: func(string) ([]byte, error) { return []byte("x=1"), nil }})
		checkImport(t, file, err)
	})
}

func FuzzHAR(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := importer.HAR("f.har", src, importer.HAROptions{IncludeStatic: len(src)%2 == 0})
		checkImport(t, file, err)
	})
}

func FuzzOpenAPI(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := importer.OpenAPI("f.yaml", src, importer.OpenAPIOptions{Target: "http://127.0.0.1:9"})
		checkImport(t, file, err)
	})
}

func FuzzPostman(f *testing.F) {
	f.Add([]byte(strings.Replace(postmanCollection, "BASE", "http://127.0.0.1:9", 1)))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := importer.Postman("f.json", src)
		checkImport(t, file, err)
	})
}

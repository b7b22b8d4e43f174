package yamlfile

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/surge-load/surge/scenario"
)

// FuzzParse checks that no input makes the parser or the compiler panic,
// and that every problem reported has a position. The seeds are the
// examples and the files in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*.yaml")
	for _, name := range examples {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(good))
	files := fstest.MapFS{"data.csv": {Data: []byte("a,b\n1,2\n")}}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := Compile("fuzz.yaml", src, scenario.Options{FS: files})
		if es, ok := err.(scenario.Errors); ok {
			if len(es) == 0 || len(es) > scenario.MaxErrors {
				t.Fatalf("%d errors", len(es))
			}
			for _, e := range es {
				if e.Line < 1 || e.Col < 1 || e.Msg == "" {
					t.Fatalf("error without a position or message: %#v", e)
				}
			}
		}
	})
}

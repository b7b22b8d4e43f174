package yamlfile

import (
	"strings"
	"testing"

	"github.com/surge-load/surge/examples"
)

func TestPrescan(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1)
	bad := map[string]string{
		"flow": "a: " + deep,
		"a quote in a plain scalar hides nothing": "a: it's\nb: " + deep,
		"after a closed quote":                    "a: 'x''y'\nb: \"q\\\"\" \nc: " + deep,
		"sequence items":                          strings.Repeat("- ", MaxDepth+1) + "x",
		"keys":                                    strings.Repeat("k: 1\n", MaxKeys+1),
		"flow items":                              "a: [" + strings.Repeat("1,", MaxItems+1) + "]",
	}
	for name, src := range bad {
		if err := prescan("f.yaml", []byte(src)); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
	good := map[string]string{
		"brackets in a quoted string": "a: '" + deep + "'\nb: \"" + deep + "\"",
		"brackets in a comment":       "a: 1 # " + deep,
		"brackets in a plain scalar":  "a: x" + deep,
	}
	for name, src := range good {
		if err := prescan("f.yaml", []byte(src)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	ents, _ := examples.Files.ReadDir(".")
	for _, e := range ents {
		b, _ := examples.Files.ReadFile(e.Name())
		if err := prescan(e.Name(), b); err != nil {
			t.Errorf("example %s: %v", e.Name(), err)
		}
	}
}

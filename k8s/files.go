package k8s

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/surge-load/surge/scenario/yamlfile"
)

// maxConfigMapBytes is what one ConfigMap may hold (the API server's limit
// on an object, with room for the rest of it).
const maxConfigMapBytes = 1000 * 1024

// A File is a file the runners need: the scenario or a data file it names.
type File struct {
	// Path is the file's path relative to the scenario file's directory,
	// with forward slashes: where it is mounted under the plan directory.
	Path string
	Data []byte
}

// planFiles returns the scenario file f, as read, and every data file it
// names, read now.
func planFiles(f *yamlfile.File) ([]File, error) {
	name, src, spec := f.Name, f.Source, f.Spec
	files := []File{{Path: filepath.Base(name), Data: src}}
	dir := filepath.Dir(name)
	var names []string
	for _, d := range spec.Data {
		for _, f := range []string{d.CSV, d.JSONL} {
			if f != "" && !slices.Contains(names, f) {
				names = append(names, f)
			}
		}
	}
	slices.Sort(names)
	total := len(src)
	keys := map[string]string{configMapKey(files[0].Path): files[0].Path}
	for _, f := range names {
		rel := path.Clean(filepath.ToSlash(f))
		if filepath.IsAbs(f) || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("%s: data file %s is outside the scenario file's directory; the pods see only files beside it: copy it next to %s and name it relative to it", name, f, filepath.Base(name))
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("%s: read data file: %w", name, err)
		}
		if other, ok := keys[configMapKey(rel)]; ok && other != rel {
			return nil, fmt.Errorf("%s: data files %s and %s would share the ConfigMap key %s: rename one", name, other, rel, configMapKey(rel))
		}
		keys[configMapKey(rel)] = rel
		total += len(b)
		files = append(files, File{Path: rel, Data: b})
	}
	if total > maxConfigMapBytes {
		return nil, fmt.Errorf("%s and its data files hold %d bytes, more than a ConfigMap can (about 1 MiB): bake the data files into the image, or trim them", name, total)
	}
	return files, nil
}

// configMapKey is the key of the file at p in the ConfigMap, which allows
// only letters, digits, '-', '_' and '.': the path with "__" for every
// slash and '_' for anything else.
func configMapKey(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '/':
			b.WriteString("__")
		case r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

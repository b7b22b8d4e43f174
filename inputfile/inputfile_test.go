package inputfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A missing file is named as missing, with what to check, not as the
// lstat of the confinement check.
func TestMissingFileSaysSo(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "nope.jsonl")
	if err := Confine(name, name, []string{dir}); err != nil {
		t.Errorf("Confine of a missing file inside: %v, want nil (Read reports it)", err)
	}
	_, err := Read(name, "data file", 1<<20, false)
	if !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "lstat") || !strings.Contains(err.Error(), "check the path of the data file") {
		t.Errorf("Read of a missing file: %v", err)
	}
}

// A path outside is named as written (relative to the scenario file, not
// to the working directory) and as resolved, absolute, with the
// directories it may be read from.
func TestOutsideNamesThePathAsWrittenAndResolved(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "scenarios")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "other", "ids.csv")
	os.MkdirAll(filepath.Dir(secret), 0o755)
	if err := os.WriteFile(secret, []byte("id\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	written := "../other/ids.csv"
	err := Confine(written, filepath.Join(dir, written), []string{dir})
	if !errors.Is(err, ErrOutside) {
		t.Fatalf("Confine: %v, want ErrOutside", err)
	}
	want := `"../other/ids.csv" (` + secret + `) is outside the directories data files may be read from (` + dir + `)`
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q\nwant it to begin %q", err, want)
	}
}

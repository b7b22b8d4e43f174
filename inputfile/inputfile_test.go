package inputfile

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A missing file is named as missing, with what to check, not as the
// lstat of the confinement check.
func TestMissingFileSaysSo(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "nope.jsonl")
	if err := Confine(name, []string{dir}); err != nil {
		t.Errorf("Confine of a missing file inside: %v, want nil (Read reports it)", err)
	}
	_, err := Read(name, "data file", 1<<20, false)
	if !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "lstat") || !strings.Contains(err.Error(), "check the path of the data file") {
		t.Errorf("Read of a missing file: %v", err)
	}
}

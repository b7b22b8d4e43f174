package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// smallDisk mounts a tmpfs of sizeBytes for the test, or skips it where
// mounting is impossible (not root, no CAP_SYS_ADMIN, no tmpfs).
func smallDisk(t *testing.T, sizeBytes int) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting a small tmpfs needs root")
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(sizeBytes), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("skipped: cannot mount a tmpfs to fill (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes to dir until the disk is full, leaving free bytes or fewer.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return
		}
	}
}

// A full disk fails the write and leaves the previous file whole.
func TestFullDiskKeepsPreviousFile(t *testing.T) {
	dir := smallDisk(t, 256<<10)
	path := filepath.Join(dir, "res.json")
	good := []byte(`{"good": true}` + "\n")
	if err := WriteBytes(path, good); err != nil {
		t.Fatal(err)
	}
	fill(t, dir)
	big := bytes.Repeat([]byte("x"), 1<<20)
	err := WriteBytes(path, big)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write on a full disk: err = %v, want ENOSPC", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name %s", err, path)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, good) {
		t.Fatalf("previous file changed: %q", got)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// A writer that fails leaves the previous file whole and no temporary.
func TestFailedWriterKeepsPreviousFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.html")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("file = %q, want old", got)
	}
	if err := WriteBytes(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if got, _ := os.ReadFile(path); string(got) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file = %q mode %v, want new 0600", got, fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d files, want 1", len(ents))
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	roDisk := smallDiskRO(t)
	cases := []struct {
		path, want string
	}{
		{filepath.Join(dir, "ok.json"), ""},
		{filepath.Join(dir, "missing", "x.json"), "does not exist"},
		{dir, "is a directory"},
		{"/dev/null", "not a regular file"},
	}
	if roDisk != "" {
		cases = append(cases, struct{ path, want string }{filepath.Join(roDisk, "x.json"), "cannot be written: read-only file system"})
	}
	for _, c := range cases {
		err := Check(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Check(%s) = %v", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path)):
			t.Errorf("Check(%s) = %v, want the path and %q", c.path, err, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("Check left files behind: %v", ents)
	}
	if err := CheckDir(filepath.Join(dir, "new", "csv")); err != nil {
		t.Errorf("CheckDir of a new directory: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	if err := CheckDir(filepath.Join(dir, "file")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("CheckDir of a file = %v", err)
	}
}

// smallDiskRO returns a read-only mount, or "" where mounting is
// impossible (the case is then left out).
func smallDiskRO(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return ""
	}
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", dir).Run(); err != nil {
		return ""
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/surge-load/surge/result"
)

// countingServer is a loopback server that counts the requests it sees.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	t.Cleanup(srv.Close)
	return srv, &n
}

// An unwritable destination is found before any traffic: exit 2, with the
// flag, the path and the reason, and the server saw nothing.
func TestUnwritableDestinationsFailBeforeTraffic(t *testing.T) {
	srv, seen := countingServer(t)
	dir := t.TempDir()
	res := filepath.Join(dir, "res.json")
	writeResult(t, res)
	missing := filepath.Join(dir, "no", "such", "dir", "x.json")
	asFile := filepath.Join(dir, "file")
	os.WriteFile(asFile, nil, 0o644)
	run := []string{"run", "--url", srv.URL, "--users", "1", "--duration", "1s", "-q"}
	cases := []struct {
		args []string
		want string
	}{
		{append(run, "--out", missing), "--out: " + missing + ": directory " + filepath.Dir(missing) + " does not exist"},
		{append(run, "--out", dir), "--out: " + dir + " is a directory"},
		{append(run, "--out", filepath.Join(dir, "ok.json"), "--report", missing), "--report: " + missing},
		{append(run, "--output", "jsonl="+missing), "--output jsonl: " + missing},
		{[]string{"find-max", "--url", srv.URL, "--users", "1", "-q", "--out", missing}, "--out: " + missing},
		{[]string{"merge", res, "-o", missing}, "--out: " + missing},
		{[]string{"merge", res, "--report", dir}, "--report: " + dir + " is a directory"},
		{[]string{"report", res, "-o", missing}, "--output: " + missing},
		{[]string{"report", res, "--csv", filepath.Join(asFile, "csv")}, "--csv: "},
		{[]string{"compare", res, res, "-o", missing}, "--output: " + missing},
	}
	for _, c := range cases {
		_, stderr, code := runSurge(t, c.args...)
		if code != exitInvalid || !strings.Contains(stderr, c.want) {
			t.Errorf("surge %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
	if n := seen.Load(); n != 0 {
		t.Errorf("the server saw %d requests; destinations must be checked before any traffic", n)
	}
	if os.Getuid() == 0 {
		// Root writes through permissions; a read-only mount stops it.
		ro := t.TempDir()
		if err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", ro).Run(); err != nil {
			t.Logf("read-only case skipped: cannot mount a tmpfs: %v", err)
			return
		}
		defer exec.Command("umount", "-l", ro).Run()
		_, stderr, code := runSurge(t, append(run, "--out", filepath.Join(ro, "r.json"))...)
		if code != exitInvalid || !strings.Contains(stderr, "read-only file system") {
			t.Errorf("read-only --out: exit %d, %q", code, stderr)
		}
		if n := seen.Load(); n != 0 {
			t.Errorf("the server saw %d requests", n)
		}
	}
}

// writeResult writes a small valid result to path.
func writeResult(t *testing.T, path string) {
	t.Helper()
	r := &result.Result{SchemaVersion: result.SchemaVersion, Run: result.Run{Segment: result.Segment{Count: 1}}}
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
}

// On a full disk the run fails to write its result (exit 1) and the
// previous result stays whole: a real tmpfs, filled by the test.
func TestFullDiskKeepsPreviousResult(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("skipped: mounting a tmpfs to fill needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot mount a tmpfs (%v: %s)", err, out)
	}
	defer exec.Command("umount", "-l", dir).Run()
	srv, _ := countingServer(t)
	res := filepath.Join(dir, "res.json")
	html := filepath.Join(dir, "res.html")
	args := []string{"run", "--url", srv.URL, "--users", "1", "--duration", "300ms", "-q", "--out", res}
	if _, stderr, code := runSurge(t, args...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	good, _ := os.ReadFile(res)
	if len(good) <= 4096 {
		t.Fatalf("the result is %d bytes; the test needs one larger than the 4 KB left free", len(good))
	}
	if _, err := result.ReadFile(res); err != nil {
		t.Fatal(err)
	}
	// Leave 4 KB free, as in the report of the bug.
	f, _ := os.Create(filepath.Join(dir, "filler"))
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	os.Truncate(filepath.Join(dir, "filler"), fileSize(t, filepath.Join(dir, "filler"))-4096)
	_, stderr, code := runSurge(t, append(args, "--report", html)...)
	if code != exitError || !strings.Contains(stderr, "no space left on device") {
		t.Fatalf("run on a full disk: exit %d, stderr %q; want exit 1 and ENOSPC", code, stderr)
	}
	if got, _ := os.ReadFile(res); !bytes.Equal(got, good) {
		t.Fatalf("the previous result changed on a full disk (%d bytes, was %d)", len(got), len(good))
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

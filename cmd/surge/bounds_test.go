package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMeasured runs surge with args and returns its stderr, exit code and
// peak resident memory (the kernel's maxrss of the process), failing the
// test if it runs for more than 60 s.
func runMeasured(t *testing.T, args ...string) (stderr string, code int, maxRSSBytes int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, surgeBin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("surge %s ran for more than 60s", strings.Join(args, " "))
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return errb.String(), cmd.ProcessState.ExitCode(), ru.Maxrss * 1024 // Linux reports KiB
}

// Hostile inputs (deep nesting, huge key counts, endless devices, huge
// files, files outside the scenario's directory) end in one clear line and
// exit 2, within a bounded peak memory measured from the process itself.
func TestHostileInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var keys100k strings.Builder
	keys100k.WriteString("target: http://127.0.0.1:1\nvars:\n")
	for i := range 100_000 {
		keys100k.WriteString("  k" + strconv.Itoa(i) + ": 1\n")
	}
	var block strings.Builder
	block.WriteString("target: http://127.0.0.1:1\nvars:\n")
	for i := range 2000 {
		block.WriteString(strings.Repeat(" ", i+2) + "a:\n")
	}
	big := bytes.Repeat([]byte("# padding\n"), 5<<20/10) // 5 MiB of comments
	secret := filepath.Join(t.TempDir(), "shadow")
	os.WriteFile(secret, []byte("root:$6$secret\n"), 0o600)
	scenario := func(data string) string {
		return "target: http://127.0.0.1:1\ndata:\n  rows: {" + data + "}\nscenarios:\n  s:\n    load: {users: 1, duration: 1s}\n    tasks: [{get: /}]\n"
	}
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	write("sub/ids.csv", "id\n1\n")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"50,000 nested [", []string{"validate", write("flow50k.yaml", "a: "+strings.Repeat("[", 50_000))}, "nested more than 64 levels"},
		{"100,000 nested [", []string{"validate", write("flow100k.yaml", "a: "+strings.Repeat("[", 100_000))}, "nested more than 64 levels"},
		{"100,000 nested {", []string{"validate", write("map100k.yaml", "a: "+strings.Repeat("{a: ", 100_000))}, "nested more than 64 levels"},
		{"2,000 nested block mappings", []string{"validate", write("block.yaml", block.String())}, "nested more than 64 levels"},
		{"100,000 keys", []string{"validate", write("keys.yaml", keys100k.String())}, "more than 20000 keys"},
		{"a 5 MiB scenario file", []string{"validate", write("big.yaml", string(big))}, "larger than 4194304 bytes, the limit for a scenario file"},
		{"validate /dev/zero", []string{"validate", "/dev/zero"}, "/dev/zero is not a regular file (a character device)"},
		{"validate /dev/zero, special files allowed", []string{"validate", "/dev/zero", "--allow-special-files"}, "larger than 4194304 bytes"},
		{"csv: /dev/zero", []string{"validate", write("zero.yaml", scenario("csv: /dev/zero"))}, "outside the directories data files may be read from"},
		{"csv: /dev/zero, allowed", []string{"validate", write("zero2.yaml", scenario("csv: /dev/zero")), "--allow-path", "/dev"}, "is not a regular file"},
		{"csv: /dev/zero, allowed, special", []string{"validate", write("zero3.yaml", scenario("csv: /dev/zero")), "--allow-path", "/dev", "--allow-special-files", "--max-file-size", "1MiB"}, "larger than 1048576 bytes, the limit for a data file"},
		{"--body @/dev/zero", []string{"run", "--url", "http://127.0.0.1:1/", "--users", "1", "--duration", "1s", "--body", "@/dev/zero"}, "is not a regular file"},
		{"--body @/dev/zero, special", []string{"run", "--url", "http://127.0.0.1:1/", "--users", "1", "--duration", "1s", "--body", "@/dev/zero", "--allow-special-files"}, "larger than 67108864 bytes, the limit for a body file"},
		{"csv: an absolute path outside", []string{"validate", write("abs.yaml", scenario("csv: "+secret))}, "outside the directories"},
		{"csv: ../", []string{"validate", write("sub/rel.yaml", scenario("jsonl: ../../"+filepath.Base(filepath.Dir(secret))+"/shadow"))}, "outside the directories"},
		{"a symbolic link out", []string{"validate", write("link.yaml", scenario("csv: link.csv"))}, "outside the directories"},
	}
	os.Symlink(secret, filepath.Join(dir, "link.csv"))
	const maxRSS = 200 << 20
	for _, c := range cases {
		stderr, code, rss := runMeasured(t, c.args...)
		t.Logf("%s: exit %d, peak RSS %.1f MiB: %s", c.name, code, float64(rss)/(1<<20), strings.TrimSpace(stderr))
		if code != exitInvalid || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
		if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
			t.Errorf("%s: a Go trace: %s", c.name, stderr)
		}
		if strings.Contains(stderr, "secret") || strings.Contains(stderr, "root:") {
			t.Errorf("%s: the error shows the file's content: %s", c.name, stderr)
		}
		if rss > maxRSS {
			t.Errorf("%s: peak RSS %d MiB, want under %d MiB", c.name, rss>>20, maxRSS>>20)
		}
	}
	// Within its directory, and in one --allow-path widens it to, a data
	// file is read.
	stderr, code, _ := runMeasured(t, "validate", write("ok.yaml", scenario("csv: sub/ids.csv")))
	if code != 0 {
		t.Errorf("a data file beside the scenario: exit %d: %s", code, stderr)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "ids.csv"), []byte("id\n1\n"), 0o644)
	stderr, code, _ = runMeasured(t, "validate", write("allowed.yaml", scenario("csv: "+filepath.Join(other, "ids.csv"))), "--allow-path", other)
	if code != 0 {
		t.Errorf("a data file in an --allow-path directory: exit %d: %s", code, stderr)
	}
}

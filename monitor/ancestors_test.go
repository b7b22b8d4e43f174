package monitor

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The shell (or timeout, sudo) that started surge has the spec in its
// command line: process:NAME of a process that does not exist finds no
// process, rather than the shell (a threshold on it passed on the shell's
// 0% CPU).
func TestProcessNameSkipsTheProcessesThatStartedSurge(t *testing.T) {
	marker := "surge_no_such_process_7f3a"
	// "; true" keeps the shell as the parent instead of exec-ing the child.
	cmd := exec.Command("sh", "-c", `"$0" -test.run=^$; true`, os.Args[0], "monitor="+"process:"+marker)
	cmd.Env = append(os.Environ(), "SURGE_MONITOR_CHILD=match", "SURGE_MONITOR_MATCH="+marker)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), `match: no process matches "`+marker+`"`) {
		t.Errorf("the source matched a process: %s", out)
	}
}

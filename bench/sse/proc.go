package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// procStat is what /proc says of a process: its resident memory and the
// CPU time it has used.
type procStat struct {
	RSS int64         // bytes
	CPU time.Duration // user + system
}

// clockTicks is the unit of CPU times in /proc/PID/stat (USER_HZ).
const clockTicks = 100

// readProc reads /proc/PID/status and /proc/PID/stat; pid 0 is this
// process.
func readProc(pid int) (procStat, error) {
	p := "self"
	if pid != 0 {
		p = strconv.Itoa(pid)
	}
	var st procStat
	status, err := os.ReadFile("/proc/" + p + "/status")
	if err != nil {
		return st, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return st, fmt.Errorf("parse VmRSS %q: %w", v, err)
			}
			st.RSS = kb << 10
		}
	}
	stat, err := os.ReadFile("/proc/" + p + "/stat")
	if err != nil {
		return st, fmt.Errorf("read process stat: %w", err)
	}
	// The command name may hold spaces: fields count from after its ")".
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return st, fmt.Errorf("short /proc stat %q", s)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return st, fmt.Errorf("parse /proc stat %q", s)
	}
	st.CPU = time.Duration(utime+stime) * time.Second / clockTicks
	return st, nil
}

// goMem is the Go runtime's view of this process's memory.
type goMem struct {
	HeapInuse  uint64 `json:"heap_inuse"`
	StackInuse uint64 `json:"stack_inuse"`
	Sys        uint64 `json:"sys"`
	Goroutines int    `json:"goroutines"`
}

// readGoMem collects garbage first, so that only live memory counts.
func readGoMem() goMem {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return goMem{HeapInuse: ms.HeapInuse, StackInuse: ms.StackInuse, Sys: ms.Sys, Goroutines: runtime.NumGoroutine()}
}

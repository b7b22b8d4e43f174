package monitor

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/result"
)

// TestMain lets the test binary run as the processes the tests watch:
// SURGE_MONITOR_CHILD=demo serves the demo, =spin burns CPU; each prints
// its address (or "ready") and runs until its standard input closes.
func TestMain(m *testing.M) {
	switch os.Getenv("SURGE_MONITOR_CHILD") {
	case "demo":
		servertest.ServeDemo([]string{"--cpu-cost", "2ms"})
	case "match":
		// Open a process:NAME source for SURGE_MONITOR_MATCH and say
		// what it found.
		_, err := newProcessSampler(Spec{Kind: KindProcess, Match: os.Getenv("SURGE_MONITOR_MATCH"), Interval: time.Second})
		fmt.Println("match:", err)
		os.Exit(0)
	case "spin":
		// Busy about a third of the time, so that the test measures a
		// steady load without taking a core from the tests running beside.
		fmt.Println("ready")
		go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
		for {
			end := time.Now().Add(3 * time.Millisecond)
			for time.Now().Before(end) {
			}
			time.Sleep(6 * time.Millisecond)
		}
	}
	os.Exit(m.Run())
}

// startChild runs the test binary as kind (see TestMain), with tag among
// its arguments so a process:NAME source can find it and nothing else.
func startChild(t *testing.T, kind, tag string) *servertest.Child {
	t.Helper()
	return servertest.StartChild(t, "SURGE_MONITOR_CHILD", kind, "-surge-child="+tag)
}

// procCPU reads the CPU seconds process pid has used, from /proc/PID/stat
// (fields 14 and 15, in clock ticks of 1/100 s).
func procCPUSeconds(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseFloat(fields[11], 64)
	k, _ := strconv.ParseFloat(fields[12], 64)
	return (u + k) / 100
}

// procRSS reads the resident memory of pid from /proc/PID/statm.
func procRSS(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseFloat(f[1], 64)
	return pages * float64(os.Getpagesize())
}

// series returns the values of name on src, or fails.
func seriesOf(t *testing.T, src result.MonitorSource, name string) []float64 {
	t.Helper()
	for _, s := range src.Series {
		if s.Name == name {
			return s.Values
		}
	}
	var names []string
	for _, s := range src.Series {
		names = append(names, s.Name)
	}
	t.Fatalf("source %s has no series %s; it has %v (gaps %v)", src.Name, name, names, src.Gaps)
	return nil
}

// load sends requests to url from n goroutines until stop is closed.
func load(url string, n int, stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Get(url)
				if err != nil {
					fmt.Println("load:", err)
					time.Sleep(10 * time.Millisecond)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	return &wg
}

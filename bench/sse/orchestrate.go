package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/surge-load/surge/health"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// orchestrate runs the benchmark: servers, generators, measurement,
// merged result and the figures.
func orchestrate(c *config) error {
	if _, err := health.RaiseFileLimit(); err != nil {
		return err
	}
	perProc := (c.streams + perProcess - 1) / perProcess
	if c.gens == 0 {
		c.gens = perProc
	}
	if c.servers == 0 {
		c.servers = perProc
	}
	if c.localAddrs == "" {
		c.localAddrs = fmt.Sprintf("127.0.0.1-127.0.0.%d", max(1, (c.streams+13999)/14000))
	}
	if c.out == "" {
		dir, err := os.MkdirTemp("", "surge-bench-sse-")
		if err != nil {
			return err
		}
		c.out = dir
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	c.addr = ln.Addr().String()
	ln.Close()
	fmt.Printf("bench/sse: %d streams, %d generator and %d demo processes on %s, source addresses %s, ramp %v, settle %v, window %v; results in %s\n",
		c.streams, c.gens, c.servers, c.addr, c.localAddrs, c.ramp, c.settle, c.window, c.out)

	// The demo service.
	var servers []*exec.Cmd
	defer func() {
		for _, s := range servers {
			_ = s.Process.Signal(syscall.SIGTERM)
			_ = s.Wait()
		}
	}()
	for range c.servers {
		cmd := exec.Command(exe, "-role", "server", "-addr", c.addr,
			"-event-interval", c.interval.String(), "-keepalive", c.keepAlive.String())
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("start demo process: %w", err)
		}
		servers = append(servers, cmd)
	}
	if err := waitHealthy("http://"+c.addr+"/healthz", 10*time.Second); err != nil {
		return err
	}
	time.Sleep(500 * time.Millisecond) // every process has bound the port
	serverBase := sumProcs(servers)

	// The generators.
	start := time.Now().Add(3 * time.Second)
	reports := make(chan genReport, 2*c.gens)
	var gens []*exec.Cmd
	var readers sync.WaitGroup
	for i := range c.gens {
		n := c.streams / c.gens
		if i < c.streams%c.gens {
			n++
		}
		cmd := exec.Command(exe, "-role", "gen", "-index", strconv.Itoa(i), "-n", strconv.Itoa(n),
			"-addr", c.addr, "-start", strconv.FormatInt(start.UnixNano(), 10), "-local-addrs", c.localAddrs,
			"-ramp", c.ramp.String(), "-settle", c.settle.String(), "-window", c.window.String(),
			"-buffer", strconv.Itoa(c.buffer), "-out", c.out)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("start generator process: %w", err)
		}
		gens = append(gens, cmd)
		readers.Add(1)
		go func() {
			defer readers.Done()
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				var r genReport
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					fmt.Fprintf(os.Stderr, "generator %d: %s\n", i, sc.Text())
					continue
				}
				reports <- r
			}
		}()
	}

	// The demo service over the same window as the generators.
	time.Sleep(time.Until(start.Add(c.ramp + c.settle)))
	serverFrom := sumProcs(servers)
	time.Sleep(c.window)
	serverTo := sumProcs(servers)

	var genErr error
	for i, g := range gens {
		if err := g.Wait(); err != nil && genErr == nil {
			genErr = fmt.Errorf("generator %d: %w", i, err)
		}
	}
	readers.Wait()
	close(reports)
	if genErr != nil {
		return genErr
	}
	var base, steady genTotals
	var parts []*result.Result
	for r := range reports {
		switch r.Phase {
		case "baseline":
			base.add(r)
		case "steady":
			steady.add(r)
			res, err := result.ReadFile(r.Result)
			if err != nil {
				return err
			}
			parts = append(parts, res)
		}
	}
	if len(parts) != c.gens {
		return fmt.Errorf("%d of %d generators reported", len(parts), c.gens)
	}
	merged, err := metrics.Merge(parts...)
	if err != nil {
		return err
	}
	if err := merged.WriteFile(c.out + "/merged.json"); err != nil {
		return err
	}
	report.Summary(os.Stdout, merged)

	open := max(steady.open, 1)
	perStream := func(from, to int64) float64 { return float64(to-from) / float64(open) / 1024 }
	fmt.Printf("\nOpen streams at steady state: %d of %d (generators' recorders)\n", steady.open, c.streams)
	fmt.Printf("Generator, %d processes: RSS %s before the ramp, %s held: %.1f KiB per open stream; Go heap %.1f KiB and stacks %.1f KiB per stream; %d goroutines; CPU %.1f%% of one core over %v\n",
		c.gens, mib(base.rss), mib(steady.rss), perStream(base.rss, steady.rss),
		perStream(int64(base.heap), int64(steady.heap)), perStream(int64(base.stack), int64(steady.stack)),
		steady.goroutines, steady.cpu, c.window)
	fmt.Printf("Demo service, %d processes: RSS %s idle, %s held: %.1f KiB per subscriber; CPU %.1f%% of one core over the same window\n",
		c.servers, mib(serverBase.RSS), mib(serverTo.RSS), perStream(serverBase.RSS, serverTo.RSS),
		100*float64(serverTo.CPU-serverFrom.CPU)/float64(c.window))
	return nil
}

// genTotals add up the reports of the generators in one phase.
type genTotals struct {
	open, rss   int64
	heap, stack uint64
	goroutines  int
	cpu         float64
}

func (t *genTotals) add(r genReport) {
	t.open += r.Open
	t.rss += r.RSS
	t.heap += r.Go.HeapInuse
	t.stack += r.Go.StackInuse
	t.goroutines += r.Go.Goroutines
	t.cpu += r.CPUPerc
}

// sumProcs adds up the memory and CPU time of the processes.
func sumProcs(cmds []*exec.Cmd) procStat {
	var sum procStat
	for _, c := range cmds {
		st, err := readProc(c.Process.Pid)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench/sse: %v\n", err)
			continue
		}
		sum.RSS += st.RSS
		sum.CPU += st.CPU
	}
	return sum
}

func waitHealthy(url string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the demo service did not come up at %s: %v", url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func mib(b int64) string { return strings.TrimSpace(fmt.Sprintf("%7.1f MiB", float64(b)/(1<<20))) }

// Command sse measures what holding server-sent event streams costs the
// load generator: it starts the demo service and generator processes,
// ramps them to a number of concurrent subscriptions, holds them, and
// reports the generator's memory per open stream and its CPU at steady
// state, with the demo service's beside them.
//
//	go run ./bench/sse -streams 50000
//	bash bench/sse-streams.sh 100000
//
// One process cannot hold more connections than its open-files limit, and
// one source address has only the ephemeral port range towards one
// destination, so both sides run as several processes: the demo service
// as -servers processes sharing one port (SO_REUSEPORT), the generator as
// -gens processes, each a surge run (surge.Run with the closed model and
// the protocol/sse client) over the source addresses of -local-addrs. The
// generators' partial results are merged (metrics.Merge) into one, whose
// summary is printed.
//
// Memory per stream is (RSS at steady state − RSS before the ramp) ÷ open
// streams, summed over the generator processes; the Go heap and stacks are
// given the same way. CPU is the processes' user+system time over the
// measurement window, as a percentage of one core.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// config is the command line.
type config struct {
	role       string
	streams    int
	gens       int
	servers    int
	localAddrs string
	ramp       time.Duration
	settle     time.Duration
	window     time.Duration
	buffer     int
	interval   time.Duration
	keepAlive  time.Duration
	out        string

	// For the server and generator roles.
	addr  string
	n     int
	start int64 // unix nanoseconds
	index int
}

// perProcess is the most connections one process is given: below the
// open-files limit of 20,000 that this kind of machine imposes.
const perProcess = 17000

func main() {
	var c config
	flag.StringVar(&c.role, "role", "", "internal: server or gen (default: run the benchmark)")
	flag.IntVar(&c.streams, "streams", 50000, "concurrent SSE streams to open")
	flag.IntVar(&c.gens, "gens", 0, "generator processes (default: streams/17000, rounded up)")
	flag.IntVar(&c.servers, "servers", 0, "demo service processes (default: streams/17000, rounded up)")
	flag.StringVar(&c.localAddrs, "local-addrs", "", "source addresses, as in 127.0.0.1-127.0.0.8 (default: one per 14,000 streams)")
	flag.DurationVar(&c.ramp, "ramp", 60*time.Second, "ramp-up time to all streams")
	flag.DurationVar(&c.settle, "settle", 15*time.Second, "hold time before measuring")
	flag.DurationVar(&c.window, "window", 30*time.Second, "measurement window at steady state")
	flag.IntVar(&c.buffer, "buffer", 0, "read buffer per stream in bytes (default: the sse package's)")
	flag.DurationVar(&c.interval, "event-interval", 5*time.Second, "demo: period of the tick event")
	flag.DurationVar(&c.keepAlive, "keepalive", 15*time.Second, "demo: period of keep-alive comments")
	flag.StringVar(&c.out, "out", "", "directory for the results (default: a temporary one)")
	flag.StringVar(&c.addr, "addr", "", "internal: the demo's address")
	flag.IntVar(&c.n, "n", 0, "internal: streams of one generator")
	flag.Int64Var(&c.start, "start", 0, "internal: agreed start, unix nanoseconds")
	flag.IntVar(&c.index, "index", 0, "internal: generator index")
	flag.Parse()

	var err error
	switch c.role {
	case "":
		err = orchestrate(&c)
	case "server":
		err = serve(&c)
	case "gen":
		err = generate(&c)
	default:
		err = fmt.Errorf("unknown role %q", c.role)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench/sse: %v\n", err)
		os.Exit(1)
	}
}

package demo

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestParseLatency(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		in   string
		want Latency
		str  string
	}{
		{"", Latency{}, "0"},
		{"off", Latency{}, "0"},
		{"0", Latency{}, "0"},
		{"20ms", Latency{Mean: 20 * ms}, "20ms"},
		{"fixed:20ms", Latency{Mean: 20 * ms}, "20ms"},
		{"uniform:10ms,30ms", Latency{Dist: Uniform, Min: 10 * ms, Max: 30 * ms}, "uniform:10ms,30ms"},
		{"normal:20ms,5ms", Latency{Dist: Normal, Mean: 20 * ms, StdDev: 5 * ms}, "normal:20ms,5ms"},
		{" Normal:20ms, 5ms ", Latency{Dist: Normal, Mean: 20 * ms, StdDev: 5 * ms}, "normal:20ms,5ms"},
		{"exponential:20ms", Latency{Dist: Exponential, Mean: 20 * ms}, "exponential:20ms"},
		{"exp:1s", Latency{Dist: Exponential, Mean: time.Second}, "exponential:1s"},
	} {
		got, err := ParseLatency(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseLatency(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if got.String() != tc.str {
			t.Errorf("String() = %q, want %q", got.String(), tc.str)
		}
		if back, err := ParseLatency(got.String()); err != nil || back != got {
			t.Errorf("round trip of %q: %+v, %v", got.String(), back, err)
		}
	}
	for _, in := range []string{
		"20", "fast", "normal:20ms", "uniform:30ms,10ms", "uniform:1ms", "gamma:1ms",
		"exponential:1ms,2ms", "-5ms", "normal:20ms,-1ms", "fixed:",
	} {
		if l, err := ParseLatency(in); err == nil {
			t.Errorf("ParseLatency(%q) = %+v, want an error", in, l)
		}
	}
}

func TestParseStall(t *testing.T) {
	d, p, err := ParseStall("2s/30s")
	if err != nil || d != 2*time.Second || p != 30*time.Second {
		t.Fatalf("ParseStall(2s/30s) = %v, %v, %v", d, p, err)
	}
	if d, p, err := ParseStall("off"); err != nil || d != 0 || p != 0 {
		t.Fatalf("ParseStall(off) = %v, %v, %v", d, p, err)
	}
	for _, in := range []string{"2s", "2s/", "x/30s", "30s/2s", "2s/2s", "0s/1s", "-1s/5s"} {
		if _, _, err := ParseStall(in); err == nil {
			t.Errorf("ParseStall(%q): want an error", in)
		}
	}
}

func TestRegisterFlags(t *testing.T) {
	var c Config
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	RegisterFlags(fs, &c)
	if c != DefaultConfig() {
		t.Fatalf("before parsing, config %+v, want the defaults %+v", c, DefaultConfig())
	}
	err := fs.Parse(strings.Fields(`--latency-dist normal:20ms,5ms --stall 2s/30s --fail-rate 0.01
		--max-inflight 4 --queue 16 --queue-timeout 500ms --cpu-cost 200us --max-depth 8
		--lock-wait 0 --move-cost-per-node 0 --flush-cost-per-line 5us --log-wait 100ms
		--log-buffer-lines 50 --flush-batch 25 --event-interval 1s --event-history 10
		--keepalive-interval 3s --rand-seed 9 --items 50 --cache-ttl 20s --store-latency 80ms
		--store-pool 3 --warmup-cpu 5ms/15s --external-rate 25 --external-wait 2s`))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		MaxDepth: 8, LockWait: -1, MoveCostPerNode: -1,
		LogBufferLines: 50, FlushBatch: 25, FlushCostPerLine: 5 * time.Microsecond, LogWait: 100 * time.Millisecond,
		EventInterval: time.Second, EventHistory: 10, KeepAliveInterval: 3 * time.Second,
		Latency:    Latency{Dist: Normal, Mean: 20 * time.Millisecond, StdDev: 5 * time.Millisecond},
		StallEvery: 30 * time.Second, StallFor: 2 * time.Second,
		FailRate: 0.01, MaxInFlight: 4, QueueSize: 16, QueueTimeout: 500 * time.Millisecond,
		CPUCost: 200 * time.Microsecond, Seed: 9,
		Items: 50, CacheTTL: 20 * time.Second, StoreLatency: 80 * time.Millisecond, StorePool: 3,
		WarmupCPU: 5 * time.Millisecond, WarmupFor: 15 * time.Second, ExternalRate: 25, ExternalWait: 2 * time.Second,
	}
	if c != want {
		t.Fatalf("parsed config\n%+v\nwant\n%+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if got := fs.Lookup("latency").Value.String(); got != "normal:20ms,5ms" {
		t.Errorf("--latency shows %q", got)
	}
	if got := fs.Lookup("stall").Value.String(); got != "2s/30s" {
		t.Errorf("--stall shows %q", got)
	}
	if got := fs.Lookup("lock-wait").Value.String(); got != "0" {
		t.Errorf("--lock-wait shows %q", got)
	}

	fs = pflag.NewFlagSet("demo", pflag.ContinueOnError)
	RegisterFlags(fs, &Config{})
	for _, args := range [][]string{
		{"--latency", "soon"}, {"--stall", "30s/2s"}, {"--lock-wait", "-1s"}, {"--fail-rate", "x"},
	} {
		if err := fs.Parse(args); err == nil {
			t.Errorf("parsing %q: want an error", args)
		}
	}
}

func TestValidate(t *testing.T) {
	if err := (&Config{}).Validate(); err != nil {
		t.Fatalf("zero config: %v", err)
	}
	d := DefaultConfig()
	if err := d.Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	for _, tc := range []struct {
		cfg    Config
		substr string
	}{
		{Config{MaxDepth: -1}, "max depth"},
		{Config{FailRate: 1.5}, "fail rate"},
		{Config{FailRate: math.NaN()}, "fail rate"},
		{Config{MaxInFlight: -2}, "max in flight"},
		{Config{QueueSize: 3}, "without max in flight"},
		{Config{QueueTimeout: time.Second}, "without max in flight"},
		{Config{StallFor: time.Second}, "stall needs both"},
		{Config{StallFor: 5 * time.Second, StallEvery: time.Second}, "shorter than its period"},
		{Config{CPUCost: -time.Second}, "CPU cost"},
		{Config{EventInterval: time.Microsecond}, "event interval"},
		{Config{Latency: Latency{Dist: Uniform, Min: 2, Max: 1}}, "latency"},
		{Config{Latency: Latency{Dist: 9}}, "unknown distribution"},
	} {
		err := tc.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.substr) {
			t.Errorf("Validate(%+v) = %v, want an error about %q", tc.cfg, err, tc.substr)
		}
	}
	err := (&Config{MaxDepth: -1, FailRate: 2}).Validate()
	if err == nil || !strings.Contains(err.Error(), "max depth") || !strings.Contains(err.Error(), "fail rate") {
		t.Errorf("two bad knobs: %v, want both reported", err)
	}
}

// TestNewClampsBadConfig checks that New survives a config that Validate
// rejects.
func TestNewClampsBadConfig(t *testing.T) {
	s := New(Config{MaxDepth: -5, LogBufferLines: -1, FlushBatch: -1, EventHistory: -1,
		EventInterval: -time.Second, KeepAliveInterval: -time.Second, FailRate: math.NaN(),
		MaxInFlight: -3, QueueSize: -1, StallFor: time.Hour, Latency: Latency{Dist: 42}})
	defer s.Close()
	wantStatus(t, do(t, s, "GET", "/", nil), 200)
	uid, root := createUser(t, s, "x")
	createFolder(t, s, uid, root, "a")
	wantStatus(t, do(t, s, "POST", "/api/v1/logs", "line\n"), 202)
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/health"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/protocol/sse"
)

// A genReport is what a generator process prints, one JSON line each:
// "baseline" before the ramp, "steady" after the measurement window.
type genReport struct {
	Phase   string  `json:"phase"`
	Index   int     `json:"index"`
	Open    int64   `json:"open"` // streams open, as the recorder last saw
	RSS     int64   `json:"rss"`
	CPUPerc float64 `json:"cpu_percent"` // of one core, over the window
	Go      goMem   `json:"go"`
	Result  string  `json:"result,omitempty"` // path of the result document
}

// user is a virtual user that subscribes and holds the stream until the
// run stops.
type user struct {
	c     *sse.Client
	req   *sse.Request
	shard *metrics.Shard
	ep    metrics.EndpointID
}

func (u *user) Iterate(ctx context.Context, it executor.Iteration) {
	u.c.Subscribe(ctx, u.req, sse.Recording{Shard: u.shard, Endpoint: u.ep, Intended: it.LatencyFrom()})
}

// generate runs one generator process: c.n users ramped up from c.start,
// each holding one subscription, measured at steady state.
func generate(c *config) error {
	if _, err := health.RaiseFileLimit(); err != nil {
		return err
	}
	var addrs []net.IP
	if c.localAddrs != "" {
		var err error
		if addrs, err = httpc.ParseLocalAddrs(c.localAddrs); err != nil {
			return err
		}
	}
	start := time.Unix(0, c.start)
	client := sse.New(sse.Options{LocalAddrs: addrs, BufferBytes: c.buffer})
	req := &sse.Request{URL: "http://" + c.addr + "/api/v1/events", SentAt: sse.JSONTime("sent_at", time.Nanosecond)}
	if err := req.Prepare(); err != nil {
		return err
	}

	// The baseline: the process with its client, before any stream.
	base, err := readProc(0)
	if err != nil {
		return err
	}
	emit(genReport{Phase: "baseline", Index: c.index, RSS: base.RSS, Go: readGoMem()})

	var rec *metrics.Recorder
	hold := c.settle + c.window + 5*time.Second
	plan := &surge.Plan{
		Target: "http://" + c.addr,
		Setup:  func(_ context.Context, r *metrics.Recorder) (json.RawMessage, error) { rec = r; return nil, nil },
		Scenarios: []surge.Scenario{{
			Name: "sse",
			Load: executor.Closed{
				Stages: []executor.Stage{{Duration: c.ramp, Target: float64(c.n)}, {Duration: hold, Target: float64(c.n)}},
				// A user whose stream failed tries again a second later.
				Think: func(*rand.Rand) time.Duration { return time.Second },
			},
			Users: func(r *metrics.Recorder) executor.NewUser {
				ep := r.Endpoint("GET /api/v1/events")
				return func(id int) executor.User {
					return &user{c: client, req: req, shard: r.Shard(id), ep: ep}
				}
			},
			Conns:       c.n,
			SourceAddrs: max(len(addrs), 1),
			Describe:    fmt.Sprintf("%d users, each holding one SSE stream", c.n),
			Endpoints:   []string{"GET /api/v1/events"},
		}},
	}

	measured := make(chan genReport, 1)
	go func() {
		time.Sleep(time.Until(start.Add(c.ramp + c.settle)))
		from, _ := readProc(0)
		time.Sleep(c.window)
		to, _ := readProc(0)
		r := genReport{Phase: "steady", Index: c.index, CPUPerc: 100 * float64(to.CPU-from.CPU) / float64(c.window)}
		r.Go = readGoMem()
		after, _ := readProc(0)
		r.RSS = after.RSS
		if rec != nil {
			r.Open = rec.Live().Streams
		}
		measured <- r
	}()
	res, err := surge.Run(context.Background(), plan, surge.Options{StartAt: start})
	if err != nil {
		return err
	}
	r := <-measured
	r.Result = fmt.Sprintf("%s/gen-%d.json", c.out, c.index)
	if err := res.WriteFile(r.Result); err != nil {
		return err
	}
	emit(r)
	return nil
}

func emit(r genReport) {
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
}

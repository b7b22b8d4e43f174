package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/live"
	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/output"
	"github.com/surge-load/surge/result"
)

// liveFlags are the flags that follow a run while it goes: outputs, and
// the live page.
type liveFlags struct {
	outputs []string
	ui      string
	uiToken string
}

func (f *liveFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.outputs, "output", nil, "stream the run while it goes, as KIND=URL: prometheus-rw=URL, influxdb=URL, otlp=URL or jsonl=FILE (repeatable; see docs/live.md)")
	fs.StringVar(&f.ui, "ui", "", "serve the live page, its API and /metrics on this address, such as 127.0.0.1:8089 (see docs/live.md)")
	fs.StringVar(&f.uiToken, "ui-token", "", "the token control requests to --ui must carry (default: random; required off loopback; or $SURGE_UI_TOKEN)")
}

// apply adds the flags' outputs to plan.
func (f *liveFlags) apply(plan *surge.Plan) error {
	for _, spec := range f.outputs {
		o, err := output.Parse(spec)
		if err != nil {
			return &codeError{code: exitInvalid, err: err}
		}
		if kind, path, _ := strings.Cut(spec, "="); kind == output.KindJSONL {
			if err := checkDestinations(destination{flag: "output " + kind, path: path}); err != nil {
				return err
			}
		}
		plan.Outputs = append(plan.Outputs, o)
	}
	return nil
}

// serve starts the live page if --ui asks for it, wiring it into opts, and
// returns what to call with the final result (nil: no page).
func (f *liveFlags) serve(stderr io.Writer, plan *surge.Plan, opts *surge.Options) (finish func(*result.Result), err error) {
	if f.ui == "" {
		return nil, nil
	}
	tok := f.uiToken
	if tok == "" {
		tok = os.Getenv("SURGE_UI_TOKEN")
	}
	set := livemetrics.New(plan.EndpointScenarios(), livemetrics.Segment(opts.Segment.Index, opts.Segment.Count))
	ctl := surge.NewController()
	srv, err := live.New(live.Config{Addr: f.ui, Token: tok, Control: ctl, Metrics: set, Planned: plan.Duration()})
	if err != nil {
		return nil, &codeError{code: exitInvalid, err: err}
	}
	srv.Serve()
	fmt.Fprintf(stderr, "surge: live page: %s\n", srv.URL())
	fmt.Fprintf(stderr, "surge: control it with curl -H 'Authorization: Bearer %s' -X POST http://%s/api/stop (docs/live.md)\n", srv.Token(), srv.Addr())
	opts.Metrics, opts.Control, opts.Watch = set, ctl, srv.Watch
	return func(res *result.Result) {
		srv.Finish(res)
		srv.Close(2 * time.Second)
	}, nil
}

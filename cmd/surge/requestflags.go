package main

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/inputfile"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/protocol/httpc"
)

// requestFlags describe the one request of a single-URL test; `surge run`
// and `surge find-max` share them.
type requestFlags struct {
	url         string
	method      string
	headers     []string
	body        string
	timeout     time.Duration
	noKeepAlive bool
	insecure    bool
	localAddrs  string
	// input bounds --body @FILE; nil means the defaults.
	input *inputFlags
}

// register defines the request flags on fs.
func (f *requestFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.url, "url", "", "the URL to load (http:// or https://)")
	fs.StringVarP(&f.method, "method", "X", "GET", "HTTP method")
	fs.StringArrayVarP(&f.headers, "header", "H", nil, "request header 'Name: value' (repeatable)")
	fs.StringVar(&f.body, "body", "", "request body, or @FILE to read it from a file")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "timeout of one request, including reading the body")
	fs.BoolVar(&f.noKeepAlive, "no-keepalive", false, "open a new connection for every request")
	fs.BoolVar(&f.insecure, "insecure", false, "do not verify TLS certificates")
	fs.StringVar(&f.localAddrs, "local-addrs", "", "spread connections over these source addresses, a list or range such as 127.0.0.1-127.0.0.8, to open more connections to one destination than one address's ephemeral ports allow")
}

// request turns the flags into the request, or says what is wrong with
// them.
func (f *requestFlags) request() (surge.Request, error) {
	if f.url == "" {
		return surge.Request{}, errors.New("--url is required, such as --url http://127.0.0.1:8080/")
	}
	if f.timeout <= 0 {
		return surge.Request{}, fmt.Errorf("--timeout %v must be positive", f.timeout)
	}
	header := http.Header{}
	for _, h := range f.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return surge.Request{}, fmt.Errorf("--header %q: want 'Name: value'", h)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if err := httpc.CheckHeader(k, v); err != nil {
			return surge.Request{}, fmt.Errorf("--header: %w", err)
		}
		header.Add(k, v)
	}
	if err := httpc.CheckMethod(f.method); err != nil {
		return surge.Request{}, fmt.Errorf("--method: %w", err)
	}
	body := []byte(f.body)
	if name, ok := strings.CutPrefix(f.body, "@"); ok {
		limit, err := f.input.maxBytes()
		if err != nil {
			return surge.Request{}, err
		}
		if limit == 0 {
			limit = inputfile.DefaultMaxBodyBytes
		}
		if body, err = inputfile.Read(name, "body file", limit, f.input != nil && f.input.allowSpecial); err != nil {
			return surge.Request{}, fmt.Errorf("--body @%s: %w", name, err)
		}
	}
	opts, err := f.httpOptions()
	if err != nil {
		return surge.Request{}, err
	}
	return surge.Request{
		Method: strings.ToUpper(f.method),
		URL:    f.url,
		Header: header,
		Body:   body,
		HTTP:   opts,
	}, nil
}

// parseThresholds parses --threshold expressions.
func parseThresholds(exprs []string) ([]analysis.Threshold, error) {
	var ths []analysis.Threshold
	for _, expr := range exprs {
		t, err := analysis.ParseThreshold(expr)
		if err != nil {
			return nil, err
		}
		ths = append(ths, t)
	}
	return ths, nil
}

// parseMonitors parses the values of --monitor.
func parseMonitors(flags []string) ([]monitor.Spec, error) {
	var out []monitor.Spec
	for _, f := range flags {
		m, err := monitor.ParseFlag(f)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// httpOptions returns the HTTP client options the flags set, with the
// source addresses of --local-addrs checked to belong to this host.
func (f *requestFlags) httpOptions() (httpc.Options, error) {
	opts := httpc.Options{Timeout: f.timeout, NoKeepAlive: f.noKeepAlive, InsecureTLS: f.insecure}
	if f.localAddrs == "" {
		return opts, nil
	}
	addrs, err := httpc.ParseLocalAddrs(f.localAddrs)
	if err != nil {
		return opts, fmt.Errorf("--local-addrs: %w", err)
	}
	if err := httpc.CheckLocalAddrs(addrs); err != nil {
		return opts, fmt.Errorf("--local-addrs: %w", err)
	}
	opts.LocalAddrs = addrs
	return opts, nil
}

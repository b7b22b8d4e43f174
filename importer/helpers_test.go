package importer_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// newDemo serves a fresh demo on loopback for the test.
func newDemo(t *testing.T) (*demo.Service, string) {
	t.Helper()
	svc := demo.New(demo.Config{})
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { srv.Close(); svc.Close() })
	return svc, srv.URL
}

// spec parses an imported file as surge validate does.
func spec(t *testing.T, f *importer.File) *scenario.Spec {
	t.Helper()
	s, _, err := yamlfile.Parse("imported.yaml", f.YAML())
	if err != nil {
		t.Fatalf("the imported file does not parse: %v\n%s", err, f.YAML())
	}
	return s
}

// runFile validates the imported file, as surge validate does, and runs it
// as is against target, replacing its iterations if iterations > 0.
func runFile(t *testing.T, f *importer.File, target string, opts scenario.Options, iterations int) *result.Result {
	t.Helper()
	src := f.YAML()
	if !bytes.HasPrefix(src, []byte("# Imported by surge import")) {
		t.Errorf("the file does not start with its comment header:\n%s", src)
	}
	if iterations > 0 {
		src = bytes.ReplaceAll(src, []byte("iterations: 1\n"), []byte("iterations: "+itoa(iterations)+"\n"))
	}
	opts.Target = target
	plan, err := yamlfile.Compile("imported.yaml", src, opts)
	if err != nil {
		t.Fatalf("the imported file is not valid: %v\n%s", err, src)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func itoa(n int) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// row returns the statistics row name of res.
func row(res *result.Result, name string) result.EndpointStats {
	for _, e := range res.Endpoints {
		if e.Name == name {
			return e
		}
	}
	return result.EndpointStats{}
}

// noFailures fails the test if the run had any failure.
func noFailures(t *testing.T, res *result.Result, f *importer.File) {
	t.Helper()
	if res.Totals.Failures != 0 || res.Totals.Requests == 0 {
		t.Errorf("%d requests, %d failures: %+v\n%s", res.Totals.Requests, res.Totals.Failures, res.Errors, f.YAML())
	}
}

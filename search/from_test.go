package search_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
	"github.com/surge-load/surge/search"
)

func ptr[T any](v T) *T { return &v }

// TestConfigFromPrecedence: a flag wins over the file's search section,
// which wins over the defaults; the step is taken whole from one source.
func TestConfigFromPrecedence(t *testing.T) {
	file := &scenario.Search{Model: "rate", Start: 50, Factor: 1.5, Max: 400, Step: 30 * time.Second, Budget: 10 * time.Minute}

	c, err := search.ConfigFrom(nil, search.Overrides{Users: ptr("10")})
	want := search.Config{Search: scenario.Search{Model: search.Users, Start: 10, Factor: search.DefaultFactor, Step: search.DefaultStep, Warmup: search.DefaultWarmup, Budget: search.DefaultBudget}}
	if err != nil || !sameLevels(c, want) {
		t.Errorf("defaults: %+v, %v; want %+v", c, err, want)
	}

	c, err = search.ConfigFrom(file, search.Overrides{})
	want = search.Config{Search: scenario.Search{Model: search.Rate, Start: 50, Factor: 1.5, Max: 400, Step: 30 * time.Second, Warmup: search.DefaultWarmup, Budget: 10 * time.Minute}}
	if err != nil || !sameLevels(c, want) {
		t.Errorf("file: %+v, %v; want %+v", c, err, want)
	}

	c, err = search.ConfigFrom(file, search.Overrides{Rate: ptr("80/s"), Add: ptr("20"), Warmup: ptr(time.Duration(0)), Step: ptr(5 * time.Second)})
	want = search.Config{Search: scenario.Search{Model: search.Rate, Start: 80, Add: 20, Max: 400, Step: 5 * time.Second, Budget: 10 * time.Minute}}
	if err != nil || !sameLevels(c, want) {
		t.Errorf("flags over file: %+v, %v; want %+v", c, err, want)
	}

	// The flags' model replaces the file's, with the first level.
	c, err = search.ConfigFrom(file, search.Overrides{Model: ptr("users"), Start: ptr("4"), Max: ptr("8")})
	if err != nil || c.Model != search.Users || c.Start != 4 || c.Factor != 1.5 || c.Max != 8 {
		t.Errorf("--model users --start 4 over a rate file: %+v, %v", c, err)
	}
}

func sameLevels(a, b search.Config) bool {
	return a.Model == b.Model && a.Start == b.Start && a.Factor == b.Factor && a.Add == b.Add && a.Max == b.Max &&
		a.Step == b.Step && a.Warmup == b.Warmup && a.Budget == b.Budget
}

// TestConfigFromFlagErrors: a flag's problem names the flag, whatever the
// file says.
func TestConfigFromFlagErrors(t *testing.T) {
	file := &scenario.Search{Model: "users", Start: 10, Step: 4 * time.Second}
	for _, c := range []struct {
		file *scenario.Search
		o    search.Overrides
		msg  string
	}{
		{nil, search.Overrides{}, "choose a load"},
		{nil, search.Overrides{Users: ptr("1.5")}, `--users "1.5": want a whole number of users`},
		{nil, search.Overrides{Rate: ptr("fast")}, "--rate: "},
		{nil, search.Overrides{Users: ptr("3"), Rate: ptr("3")}, "not both"},
		{nil, search.Overrides{Model: ptr("bursts"), Start: ptr("3")}, "want users or rate"},
		{nil, search.Overrides{Start: ptr("3")}, "--start needs --model"},
		{nil, search.Overrides{Rate: ptr("10"), Factor: ptr(1.0)}, "--step-factor 1 must be more than 1"},
		{nil, search.Overrides{Rate: ptr("10"), Factor: ptr(0.0)}, "--step-factor 0 must be more than 1"},
		{nil, search.Overrides{Rate: ptr("10"), Add: ptr("0")}, "--step-add 0 must be positive"},
		{nil, search.Overrides{Rate: ptr("10"), Max: ptr("5")}, "--max 5 is below the first level 10"},
		{nil, search.Overrides{Rate: ptr("10"), Budget: ptr(time.Second)}, "--budget 1s is shorter than one step (the default --step-duration 10s)"},
		{nil, search.Overrides{Rate: ptr("10"), Step: ptr(time.Duration(0))}, "--step-duration 0s must be positive"},
		// The file's step, the flag's warm-up: the flag is wrong.
		{file, search.Overrides{Warmup: ptr(5 * time.Second)}, "--warmup 5s must be shorter than search.step 4s"},
		{file, search.Overrides{Max: ptr("5")}, "--max 5 is below the first level 10"},
		{file, search.Overrides{Budget: ptr(time.Second)}, "--budget 1s is shorter than one step (search.step 4s)"},
		// A default is not blamed: the flag it is compared with is.
		{nil, search.Overrides{Rate: ptr("10"), Step: ptr(time.Second)}, "the default --warmup 2s must be shorter than --step-duration 1s"},
	} {
		_, err := search.ConfigFrom(c.file, c.o)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%+v: %v; want %q", c.o, err, c.msg)
		}
		if _, ok := err.(scenario.Errors); ok {
			t.Errorf("%+v: a flag's problem is reported as the file's: %v", c.o, err)
		}
	}
}

// TestConfigFromFileErrors: the problems of the file's search section are
// placed at their file:line:col, all of them at once.
func TestConfigFromFileErrors(t *testing.T) {
	src := `target: http://127.0.0.1:1
scenarios:
  a:
    load: {users: 1, duration: 1s}
    tasks: [{get: /}]
search:
  users: 10
  factor: 0.5
  max: 5
  step: 2s
`
	f, err := open(t, src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = search.ConfigFrom(f.Spec.Search, search.Overrides{})
	got := f.Locate(err)
	for _, want := range []string{"s.yaml:8:11: factor 0.5 must be more than 1; use a factor above 1", "s.yaml:9:8: max 5 is below the first level 10",
		"s.yaml:10:9: the default --warmup 2s must be shorter than step 2s"} {
		if got == nil || !strings.Contains(got.Error(), want) {
			t.Errorf("got %v; want %q", got, want)
		}
	}
	// Flags that replace the wrong fields leave nothing to report.
	if _, err := search.ConfigFrom(f.Spec.Search, search.Overrides{Add: ptr("5"), Max: ptr("50"), Warmup: ptr(time.Second)}); err != nil {
		t.Errorf("overridden: %v", err)
	}
	// A section without a first level.
	f, err = open(t, strings.Replace(src, "  users: 10\n", "", 1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = search.ConfigFrom(f.Spec.Search, search.Overrides{})
	if got := f.Locate(err); got == nil || !strings.Contains(got.Error(), "s.yaml:6:") || !strings.Contains(got.Error(), "no model") {
		t.Errorf("no model: %v", got)
	}
}

func open(t *testing.T, src string) (*yamlfile.File, error) {
	t.Helper()
	path := t.TempDir() + "/s.yaml"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return yamlfile.Open(path, scenario.Options{})
}

// TestConfigFromAfterAProblemOfForm: a field the file could not decode is
// reported once, as it is written, not again as the zero it decoded to.
func TestConfigFromAfterAProblemOfForm(t *testing.T) {
	f, err := open(t, "target: http://127.0.0.1:1\nscenarios:\n  a:\n    load: {rate: 1, duration: 1s}\n    tasks: [{get: /}]\nsearch: {rate: fast}\n")
	if err != nil {
		t.Fatal(err)
	}
	_, cerr := f.Compile(scenario.Options{})
	_, serr := search.ConfigFrom(f.Spec.Search, search.Overrides{})
	got := f.Locate(cerr, serr)
	if got == nil || strings.Count(got.Error(), "s.yaml:6:") != 1 || !strings.Contains(got.Error(), `"fast"`) {
		t.Errorf("got %v; want the one problem of rate: fast", got)
	}
}

package output_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// dashboardTargets reads a Grafana dashboard of ../dashboards and returns
// its panels' queries by panel title, with Grafana's variables replaced
// by values that select everything of the last hour.
func dashboardTargets(t *testing.T, name string, vars map[string]string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../dashboards/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr  string `json:"expr"`
				Query string `json:"query"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := map[string][]string{}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			q := tg.Expr + tg.Query
			for k, v := range vars {
				q = strings.ReplaceAll(q, k, v)
			}
			if strings.Contains(q, "$") {
				t.Fatalf("%s: panel %q: a variable is left in %q", name, p.Title, q)
			}
			out[p.Title] = append(out[p.Title], q)
		}
	}
	if len(out) < 8 {
		t.Fatalf("%s has %d panels with queries", name, len(out))
	}
	return out
}

// checkDashboards runs every query of both dashboards against the
// backends after a run: each must succeed, and each (but the streams
// panel, for a run without streams) must find data.
func checkDashboards(t *testing.T, prom, influx string) {
	for title, qs := range dashboardTargets(t, "grafana-prometheus.json", map[string]string{
		"$__rate_interval": "1m", "$__range": "1h", "$scenario": ".*", "$endpoint": ".*",
	}) {
		for _, q := range qs {
			if s := promQuery(t, prom, q); len(s) == 0 && !strings.Contains(title, "Streams") {
				t.Errorf("prometheus dashboard, panel %q: %s found nothing", title, q)
			}
		}
	}
	for title, qs := range dashboardTargets(t, "grafana-influxdb.json", map[string]string{
		"/^$scenario$/": "/.*/", "/^$endpoint$/": "/.*/", "$timeFilter": "time > now() - 1h", "$__interval": "1s",
	}) {
		for _, q := range qs {
			if s := influxQuery(t, influx, "surge", q); len(s) == 0 && !strings.Contains(title, "Streams") {
				t.Errorf("influxdb dashboard, panel %q: %s found nothing", title, q)
			}
		}
	}
}

package main

import (
	"strings"
	"testing"

	"github.com/surge-load/surge/internal/report"
)

// surge report --help names every CSV file --csv may write, in its text and
// in the flag's description.
func TestReportHelpNamesEveryCSVFile(t *testing.T) {
	stdout, _, code := runSurge(t, "report", "--help")
	if code != exitOK {
		t.Fatalf("surge report --help: exit %d", code)
	}
	text, flag, _ := strings.Cut(stdout, "Flags:")
	for _, name := range []string{report.EndpointsCSV, report.SeriesCSV, report.ErrorsCSV, report.EndpointSeriesCSV, report.CapacityCSV} {
		if !strings.Contains(text, name) {
			t.Errorf("the help text does not name %s:\n%s", name, text)
		}
		if !strings.Contains(flag, name) {
			t.Errorf("the --csv flag's description does not name %s:\n%s", name, flag)
		}
	}
}

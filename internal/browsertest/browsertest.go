// Package browsertest starts Debian's Chromium for the tests that drive a
// page (the HTML report, the live page, a recorded HAR).
package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is where Debian's chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

// Require skips t when Chromium is not installed, or fails it when
// SURGE_REQUIRE_CHROMIUM=1 (as in CI, where a skip would hide the test).
func Require(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("SURGE_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("SURGE_REQUIRE_CHROMIUM=1 but %s is missing: apt-get install chromium", ChromiumPath)
		}
		t.Skipf("skipping the browser test: %s is missing (apt-get install chromium; SURGE_REQUIRE_CHROMIUM=1 makes this a failure)", ChromiumPath)
	}
}

// Start requires Chromium (Require), starts it headless with a fresh
// profile and a 1280×900 window, and returns the context of its first tab;
// chromedp.NewContext of it opens more tabs. Everything the browser does is
// bounded by timeout, and the browser is stopped when the test ends.
func Start(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(ChromiumPath),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return tab
}

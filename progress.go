package surge

import (
	"sync"
	"time"

	"github.com/surge-load/surge/metrics"
)

// showProgress calls pr.Live with live() every second until the returned
// func is called, which ends with pr.Done.
func showProgress(pr Progress, live func() metrics.Live, planned time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				pr.Done()
				return
			case <-t.C:
				pr.Live(live(), planned)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

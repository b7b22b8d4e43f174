package search

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/surge-load/surge/result"
)

// HealthGET returns a HealthCheck that sends GET url and wants a 2xx
// status within timeout.
func HealthGET(url string, timeout time.Duration) func(context.Context) error {
	client := &http.Client{Timeout: timeout}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("health check %s: %w", url, err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("health check %s: %w", url, err)
		}
		resp.Body.Close()
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return fmt.Errorf("health check %s: status %d", url, resp.StatusCode)
		}
		return nil
	}
}

// betweenSteps waits out the cool-down and asks the health check before a
// step that is not the first; it returns why the service is unhealthy, or
// "" if it is healthy or unchecked, and false if ctx ended.
func (s *searcher) betweenSteps(ctx context.Context) (health string, ok bool) {
	if len(s.trials) == 0 {
		return "", true
	}
	if d := s.cfg.Cooldown; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return "", false
		}
	}
	if h := s.cfg.HealthCheck; h != nil {
		if err := h(ctx); err != nil {
			return err.Error(), ctx.Err() == nil
		}
	}
	return "", true
}

// outOfOrder says which steps contradict each other, if any: a failed
// level below a level that passed, or a level that stopped answering
// below one that still answered.
func (s *searcher) outOfOrder() string {
	for i, t := range s.trials {
		st := &t.step
		if st.OK || st.Reason == "" || st.Reason == result.ReasonInterrupted || st.Reason == result.ReasonGenerator {
			continue
		}
		for _, o := range s.trials[:i] {
			ot := &o.step
			switch {
			case ot.OK && ot.Level > st.Level:
				return fmt.Sprintf("%s failed (%s) after %s had passed", s.level(st.Level), st.Reason, s.level(ot.Level))
			case st.Reason == result.ReasonStopped && ot.Level > st.Level && ot.Reason != result.ReasonStopped && ot.OKRPS > 0:
				return fmt.Sprintf("%s stopped answering after %s still answered (%.1f successful responses per second)", s.level(st.Level), s.level(ot.Level), ot.OKRPS)
			}
		}
	}
	return ""
}

// trustText says in words, for the end of the verdict, what the search
// found about the service changing while it ran: steps out of order, the
// confirmation of the maximum, failed health checks.
func (s *searcher) trustText(v *result.CapacityVerdict) string {
	var out string
	if v.OutOfOrder != "" {
		out += fmt.Sprintf(". Results out of order: %s, so the service changed during the search (it degrades over time or with the load it took) and the levels say less than they seem; search again with a cool-down (--cooldown) or a health check (--health-check)", v.OutOfOrder)
	}
	if c := v.Confirmed; c != nil {
		level := s.level(v.MaxLevel)
		last := s.trials[len(s.trials)-1].step
		if *c {
			out += fmt.Sprintf(". Confirmed: %s met the objectives again when held at the end", level)
		} else {
			out += fmt.Sprintf(". Not confirmed: held again at the end, %s failed (%s), so the service degraded during the search", level, last.Detail)
		}
	}
	var unhealthy []string
	for _, t := range s.trials {
		if t.step.Health != "" {
			unhealthy = append(unhealthy, fmt.Sprintf("before %s (%s)", s.level(t.step.Level), t.step.Health))
		}
	}
	if len(unhealthy) > 0 {
		out += fmt.Sprintf(". The health check failed %d times, first %s", len(unhealthy), unhealthy[0])
	}
	return out
}

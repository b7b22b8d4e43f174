package executor

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// BenchmarkOpenDispatch runs the open model at 100,000 arrivals a second
// for 200 ms with users that do nothing: the dispatcher's and the pool's
// own cost per arrival (the hand-off, the user's wake-up, its return to
// the stack), as CPU time of the process per arrival:
//
//	taskset -c 1 go test -run '^$' -bench OpenDispatch -cpu 1 ./executor/
func BenchmarkOpenDispatch(b *testing.B) {
	o := Open{StartRate: 100000, Stages: []Stage{{Duration: 200 * time.Millisecond, Target: 100000}}, MaxUsers: 1000}
	for b.Loop() {
		cpu0 := cpuTime()
		out, err := o.Run(Env{NewUser: func(int) User {
			return userFunc(func(context.Context, Iteration) {})
		}})
		if err != nil {
			b.Fatal(err)
		}
		cpu := cpuTime() - cpu0
		b.ReportMetric(float64(out.Dropped), "dropped")
		b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(out.Iterations+out.Dropped), "cpu-µs/arrival")
	}
}

// cpuTime returns the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Package search finds the maximum load a service sustains, and why the
// next level fails (surge find-max).
//
// # How it searches
//
// A level is a number of virtual users (the closed model, Users) or an
// arrival rate (the open model, Rate). Config.Build turns a level into a
// plan that holds it for one step; every step is a real surge.Run. From
// Config.Start the level grows by Config.Factor (or Config.Add) each step
// until a step fails or Config.Max passes. Then the search narrows by
// halving the interval between the last good and the first bad level,
// until they are within Config.Resolution of each other or the budget
// runs out. A step is started only if it fits in what is left of
// Config.Budget.
//
// # How a step is judged
//
// The first Config.Warmup of every step is its warm-up: operations meant to
// start in it are kept out of the judgement (surge.Plan.Warmup). The
// objectives, percentiles and error rate of a step are of the operations
// meant to start after it. Its throughput is what completed inside the
// judged window, by the series (an operation counts in the second it
// ended; the drain after the step is left out), per second of the window,
// so an open-model step whose arrivals queue at the service is credited
// with what the service served, not what it was offered. A step fails,
// for the first of these reasons that holds:
//
//   - generator_saturated: in the judged window the generator itself was
//     saturated (analysis.Saturation: CPU at 90% or more of its cores,
//     arrivals handed out 50 ms or more late, or goroutines
//     waiting 50 ms or more for a CPU, in two or more seconds). The step
//     says nothing about the service, so the search stops and the verdict
//     is inconclusive: it never blames the service for the generator. A
//     second counts as judged when most of it is after the warm-up, so
//     the check needs steps with two seconds or more after the warm-up.
//   - stopped_answering: successful responses fell below 5% of those of
//     the last good step, or the step's own series shows the service
//     collapsing (analysis.DetectCollapse). The search stops: a service
//     that stopped answering cannot be narrowed on.
//   - errors, latency, objective: an objective broke (a threshold on
//     errors, failures or drops; on a latency; or on anything else). When
//     both an error and a latency objective broke, errors are named,
//     unless the dominant error is dropped arrivals, which a slow service
//     causes, in which case latency is named.
//   - plateau: the level was at least 10% above the last good one, yet
//     successful throughput grew by less than 3%, or by less than a
//     quarter of the growth of the load (+100% load, less than +25%
//     throughput). Below its capacity a service's throughput grows with
//     the load, so this is the service saturated and queueing; the verdict
//     gives the concurrency Little's law implies (throughput × mean
//     latency).
//
// The verdict names the highest good level, with its throughput and p95,
// and the reason the lowest bad level failed.
//
// # Reuse
//
// Build is the only tie to how the load is described: the surge command
// builds single-URL plans with surge.SingleURL, and a scenario file's
// plan, compiled for a level, can be searched the same way.
package search

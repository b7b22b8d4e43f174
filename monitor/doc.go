// Package monitor watches the servers under load: local processes, cgroups
// (containers), the host's kernel counters and Prometheus endpoints, each
// sampled on the run's one-second timeline in a goroutine of its own, so
// that a source that is slow, hangs or disappears never delays the load.
// What a source misses is recorded as a gap with its reason.
//
// A source is named by the user and given by a spec (see Parse):
//
//	process:PID           one process
//	process:NAME          every process whose name or command line matches, summed
//	cgroup:PATH           a cgroup v2 directory (a container's)
//	container:ID          the cgroup v2 directory of a container
//	host                  this machine
//	prometheus:URL        a Prometheus text or OpenMetrics endpoint
//
// Start begins sampling and Sampling.Stop returns the result document's
// monitor section (result.Monitor).
package monitor

package k8s

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Sizing of a runner pod from the connections its segment may hold.
const (
	// baseBytes is a runner's memory with no connection: the binary, the
	// recorder and its series.
	baseBytes = 128 << 20
	// connBytes is the memory one held connection costs, with room to
	// spare: docs/performance.md measures 14 KiB per SSE stream and 22 KiB
	// per WebSocket connection.
	connBytes = 32 << 10
	// defaultPorts is the ephemeral port range most kernels start with
	// (32768-60999): the connections one source address can open to one
	// destination.
	defaultPorts = 28232
	// maxPortsPerPod is the widest ephemeral port range (1024-65535): a
	// pod has one source address.
	maxPortsPerPod = 64512
	// wideRange is the sysctl value of the widest range.
	wideRange = "1024 65535"
)

// runnerResources sizes a runner that holds up to conns connections: the
// memory they take, and, past the default ephemeral port range, the pod
// sysctl that widens it (as the generator's preflight advises; the open
// files limit the runner raises itself to the hard limit, which container
// runtimes set far above this).
func runnerResources(conns int) (corev1.ResourceRequirements, []corev1.Sysctl, error) {
	if conns > maxPortsPerPod {
		return corev1.ResourceRequirements{}, nil, fmt.Errorf("one runner would hold up to %d connections, more than the %d ephemeral ports of a pod's one source address", conns, maxPortsPerPod)
	}
	mem := int64(baseBytes + conns*connBytes)
	res := corev1.ResourceRequirements{
		// No CPU limit: a throttled generator sends late, and that lateness
		// would be measured as the server's.
		Requests: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("1"),
			corev1.ResourceMemory: *resource.NewQuantity(mem, resource.BinarySI),
		},
		Limits: corev1.ResourceList{
			corev1.ResourceMemory: *resource.NewQuantity(2*mem, resource.BinarySI),
		},
	}
	var sysctls []corev1.Sysctl
	if conns > defaultPorts {
		sysctls = []corev1.Sysctl{{Name: "net.ipv4.ip_local_port_range", Value: wideRange}}
	}
	return res, sysctls, nil
}

// collectorResources sizes the collector, which holds every part until it
// merges them.
func collectorResources(parts int) corev1.ResourceRequirements {
	mem := int64(128<<20 + parts*(32<<20))
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("250m"),
			corev1.ResourceMemory: *resource.NewQuantity(mem, resource.BinarySI),
		},
		Limits: corev1.ResourceList{
			corev1.ResourceMemory: *resource.NewQuantity(2*mem, resource.BinarySI),
		},
	}
}

package health

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// RaiseFileLimit raises the soft limit on open files to the hard limit, so
// that the generator is limited by what the system allows rather than by a
// conservative shell default. It returns the limit now in force.
func RaiseFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("read open-files limit: %w", err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return lim.Cur, fmt.Errorf("raise open-files limit to %d: %w", lim.Max, err)
		}
	}
	return lim.Cur, nil
}

// EphemeralPorts returns how many local ports the kernel hands out for
// outgoing connections (net.ipv4.ip_local_port_range), which caps the
// connections from one source address to one destination.
func EphemeralPorts() (int, error) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, fmt.Errorf("read ephemeral port range: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, fmt.Errorf("unexpected ip_local_port_range %q", strings.TrimSpace(string(b)))
	}
	lo, err1 := strconv.Atoi(f[0])
	hi, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || hi < lo {
		return 0, fmt.Errorf("unexpected ip_local_port_range %q", strings.TrimSpace(string(b)))
	}
	return hi - lo + 1, nil
}

// CheckConnections warns, with the exact fix, when conns planned concurrent
// connections to one destination exceed what the generator can open: the
// open-files limit or the ephemeral port range of sourceAddrs addresses.
func CheckConnections(conns, sourceAddrs int) []string {
	var warns []string
	if lim, err := RaiseFileLimit(); err == nil && uint64(conns)+64 > lim {
		warns = append(warns, fmt.Sprintf("up to %d connections are planned but the open-files limit is %d: run `ulimit -n %d` (raise the hard limit in /etc/security/limits.conf or systemd LimitNOFILE if refused)", conns, lim, conns+1024))
	}
	if sourceAddrs < 1 {
		sourceAddrs = 1
	}
	if ports, err := EphemeralPorts(); err == nil && conns > ports*sourceAddrs {
		have := fmt.Sprintf("one source address has %d ephemeral ports", ports)
		if sourceAddrs > 1 {
			have = fmt.Sprintf("%d source addresses have %d ephemeral ports each (%d in all)", sourceAddrs, ports, ports*sourceAddrs)
		}
		need := (conns + ports - 1) / ports
		warns = append(warns, fmt.Sprintf("up to %d connections to one destination are planned but %s: run `sysctl -w net.ipv4.ip_local_port_range=\"1024 65535\"`, or spread the connections over %d or more source addresses with --local-addrs (such as --local-addrs 127.0.0.1-127.0.0.%d for a loopback target)", conns, have, need, min(need, 254)))
	}
	return warns
}

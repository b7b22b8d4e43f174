package httpc

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// MaxLocalAddrs bounds the addresses ParseLocalAddrs expands a list to.
const MaxLocalAddrs = 4096

// ParseLocalAddrs parses a list of source addresses for Options.LocalAddrs:
// comma-separated IPv4 or IPv6 addresses and inclusive ranges of them, as
// in "127.0.0.1-127.0.0.8", "10.0.0.5,10.0.0.9" or "fd00::1-fd00::4". A
// range stays within one address family and runs upwards. An address may
// appear only once, and the list may hold at most MaxLocalAddrs.
func ParseLocalAddrs(s string) ([]net.IP, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no addresses given; want a list or range such as 127.0.0.1-127.0.0.8")
	}
	var out []net.IP
	seen := map[netip.Addr]bool{}
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("item %d of %q is empty", i+1, s)
		}
		from, to, err := parseAddrRange(item)
		if err != nil {
			return nil, err
		}
		for a := from; ; a = a.Next() {
			if seen[a] {
				return nil, fmt.Errorf("address %s is listed twice in %q", a, s)
			}
			if len(out) == MaxLocalAddrs {
				return nil, fmt.Errorf("%q holds more than %d addresses", s, MaxLocalAddrs)
			}
			seen[a] = true
			out = append(out, net.IP(a.AsSlice()))
			if a == to {
				break
			}
		}
	}
	return out, nil
}

// parseAddrRange parses "A" or "A-B" into its first and last address.
func parseAddrRange(item string) (from, to netip.Addr, err error) {
	lo, hi, isRange := strings.Cut(item, "-")
	if from, err = parseAddr(lo); err != nil {
		return from, to, err
	}
	if !isRange {
		return from, from, nil
	}
	if to, err = parseAddr(hi); err != nil {
		return from, to, err
	}
	switch {
	case from.Is4() != to.Is4():
		return from, to, fmt.Errorf("range %q mixes IPv4 and IPv6", item)
	case to.Less(from):
		return from, to, fmt.Errorf("range %q runs downwards; write it as %s-%s", item, to, from)
	}
	return from, to, nil
}

func parseAddr(s string) (netip.Addr, error) {
	s = strings.TrimSpace(s)
	a, err := netip.ParseAddr(s)
	if err != nil {
		return a, fmt.Errorf("%q is not an IP address", s)
	}
	if a.Zone() != "" {
		return a, fmt.Errorf("%q: addresses with a zone are not supported", s)
	}
	return a.Unmap(), nil
}

// CheckLocalAddrs reports the first of addrs that is not an address of
// this host, which connections could not be opened from.
func CheckLocalAddrs(addrs []net.IP) error {
	for _, ip := range addrs {
		c, err := net.ListenPacket("udp", net.JoinHostPort(ip.String(), "0"))
		if err != nil {
			return fmt.Errorf("source address %s is not an address of this host: %w", ip, err)
		}
		c.Close()
	}
	return nil
}

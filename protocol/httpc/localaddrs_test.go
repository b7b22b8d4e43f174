package httpc

import (
	"fmt"
	"net"
	"strings"
	"testing"
)

func TestParseLocalAddrs(t *testing.T) {
	good := []struct {
		in   string
		want string
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"127.0.0.1-127.0.0.4", "127.0.0.1 127.0.0.2 127.0.0.3 127.0.0.4"},
		{"10.0.0.5, 10.0.0.9", "10.0.0.5 10.0.0.9"},
		{"10.0.0.255-10.0.1.1", "10.0.0.255 10.0.1.0 10.0.1.1"},
		{"127.0.0.1-127.0.0.2,127.0.0.9", "127.0.0.1 127.0.0.2 127.0.0.9"},
		{"fd00::1-fd00::3", "fd00::1 fd00::2 fd00::3"},
		{"::1", "::1"},
		{"::ffff:127.0.0.1", "127.0.0.1"},
	}
	for _, g := range good {
		ips, err := ParseLocalAddrs(g.in)
		if err != nil {
			t.Errorf("%q: %v", g.in, err)
			continue
		}
		var got []string
		for _, ip := range ips {
			got = append(got, ip.String())
		}
		if strings.Join(got, " ") != g.want {
			t.Errorf("%q = %v, want %s", g.in, got, g.want)
		}
	}
	bad := []struct{ in, msg string }{
		{"", "no addresses"},
		{"127.0.0.1,", "item 2"},
		{"localhost", "not an IP address"},
		{"127.0.0.1-", "not an IP address"},
		{"127.0.0.4-127.0.0.1", "runs downwards; write it as 127.0.0.1-127.0.0.4"},
		{"127.0.0.1-::1", "mixes IPv4 and IPv6"},
		{"fe80::1%eth0", "zone"},
		{"127.0.0.1,127.0.0.1", "listed twice"},
		{"127.0.0.2,127.0.0.1-127.0.0.3", "listed twice"},
		{"10.0.0.0-10.0.255.255", fmt.Sprintf("more than %d", MaxLocalAddrs)},
	}
	for _, b := range bad {
		if _, err := ParseLocalAddrs(b.in); err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("%q: error %v, want one saying %q", b.in, err, b.msg)
		}
	}
}

func TestCheckLocalAddrs(t *testing.T) {
	if err := CheckLocalAddrs([]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("127.0.0.3")}); err != nil {
		t.Errorf("loopback addresses: %v", err)
	}
	// 192.0.2.0/24 is reserved for documentation: no host has it.
	if err := CheckLocalAddrs([]net.IP{net.ParseIP("192.0.2.7")}); err == nil || !strings.Contains(err.Error(), "192.0.2.7 is not an address of this host") {
		t.Errorf("foreign address: %v", err)
	}
}

package main

import "testing"

func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"1048576": 1 << 20, "64MiB": 64 << 20, "1GB": 1e9, "512 KiB": 512 << 10, "2G": 2 << 30} {
		if got, err := parseBytes(s); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MiB", "1.5MiB", "-1", "9223372036854775807GiB", "1 TB"} {
		if n, err := parseBytes(s); err == nil && n > 0 && s != "-1" {
			t.Errorf("parseBytes(%q) = %d, want an error", s, n)
		}
	}
}

// FuzzParseBytes checks that parseBytes never panics and never returns a
// negative size it did not read.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"64MiB", "1GB", "9223372036854775807", "4611686018427387904G", "-5K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseBytes(s)
		if err == nil && n < 0 && s[0] != '-' {
			t.Fatalf("parseBytes(%q) = %d", s, n)
		}
	})
}

package monitor

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/procfs"
)

// hostSeries are the series of the host source.
var hostSeries = []string{"cpu", "memory", "load1", "net_rx_bytes", "net_tx_bytes",
	"listen_overflows", "listen_drops", "syn_drops", "syncookies_sent",
	"tcp_retransmits", "tcp_resets_sent", "tcp_attempt_fails", "tcp_established"}

// A hostSampler reads this machine: CPU, memory, load, network and the
// kernel's TCP counters that explain failed connections.
type hostSampler struct {
	fs    procfs.FS
	self  procfs.Proc
	cores float64
	mem   int64
	prev  map[string]float64
	prevT time.Time
}

func newHostSampler() (*hostSampler, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("open /proc: %w", err)
	}
	self, err := fs.Self()
	if err != nil {
		return nil, fmt.Errorf("open /proc/self: %w", err)
	}
	h := &hostSampler{fs: fs, self: self}
	h.cores, h.mem = machineLimits()
	return h, nil
}

func (h *hostSampler) limits() (float64, int64) { return h.cores, h.mem }

// hostCounters are the host's counters, turned into rates: name → unit.
var hostCounters = []struct{ name, unit string }{
	{"cpu", "%"}, {"net_rx_bytes", "bytes/s"}, {"net_tx_bytes", "bytes/s"},
	{"listen_overflows", "/s"}, {"listen_drops", "/s"}, {"syn_drops", "/s"}, {"syncookies_sent", "/s"},
	{"tcp_retransmits", "/s"}, {"tcp_resets_sent", "/s"}, {"tcp_attempt_fails", "/s"},
}

func (h *hostSampler) sample(ctx context.Context) ([]reading, error) {
	st, err := h.fs.Stat()
	if err != nil {
		return nil, fmt.Errorf("read /proc/stat: %w", err)
	}
	now := time.Now()
	c := st.CPUTotal
	cur := map[string]float64{
		// CPU seconds busy: everything but idle and waiting for I/O.
		"cpu": c.User + c.Nice + c.System + c.IRQ + c.SoftIRQ + c.Steal,
	}
	var rs []reading
	if mi, err := h.fs.Meminfo(); err == nil && mi.MemTotal != nil && mi.MemAvailable != nil {
		rs = append(rs, reading{"memory", "bytes", float64(*mi.MemTotal-*mi.MemAvailable) * 1024})
	}
	if la, err := h.fs.LoadAvg(); err == nil {
		rs = append(rs, reading{"load1", "", la.Load1})
	}
	if nd, err := h.fs.NetDev(); err == nil {
		for name, d := range nd {
			if name == "lo" {
				continue
			}
			cur["net_rx_bytes"] += float64(d.RxBytes)
			cur["net_tx_bytes"] += float64(d.TxBytes)
		}
	}
	set := func(k string, v *float64) {
		if v != nil {
			cur[k] = *v
		}
	}
	if ns, err := h.self.Netstat(); err == nil {
		set("listen_overflows", ns.TcpExt.ListenOverflows)
		set("listen_drops", ns.TcpExt.ListenDrops)
		set("syn_drops", ns.TcpExt.TCPReqQFullDrop)
		set("syncookies_sent", ns.TcpExt.SyncookiesSent)
	}
	if sn, err := h.self.Snmp(); err == nil {
		set("tcp_retransmits", sn.Tcp.RetransSegs)
		set("tcp_resets_sent", sn.Tcp.OutRsts)
		set("tcp_attempt_fails", sn.Tcp.AttemptFails)
		if sn.Tcp.CurrEstab != nil {
			rs = append(rs, reading{"tcp_established", "", *sn.Tcp.CurrEstab})
		}
	}
	if h.prev != nil {
		if dt := now.Sub(h.prevT).Seconds(); dt > 0 {
			for _, k := range hostCounters {
				v, ok1 := cur[k.name]
				p, ok2 := h.prev[k.name]
				if ok1 && ok2 {
					r := (v - p) / dt
					if k.name == "cpu" {
						r *= 100
					}
					rs = append(rs, reading{k.name, k.unit, r})
				}
			}
		}
	}
	h.prev, h.prevT = cur, now
	return rs, nil
}

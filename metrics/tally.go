package metrics

import (
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// numPhases is the number of Timing fields: blocked, dns, connect, tls,
// send, wait, receive.
const numPhases = 7

// timingPhases returns the phases of t in the order of the Timing fields.
func timingPhases(t *result.TimingStats) [numPhases]*result.PhaseStats {
	return [numPhases]*result.PhaseStats{&t.Blocked, &t.DNS, &t.Connect, &t.TLS, &t.Send, &t.Wait, &t.Receive}
}

func phasesOf(t *Timing) [numPhases]time.Duration {
	return [numPhases]time.Duration{t.Blocked, t.DNS, t.Connect, t.TLS, t.Send, t.Wait, t.Receive}
}

// Limits that keep memory bounded whatever the errors look like.
const (
	// maxTemplates is how many message templates (errclass.Template) an
	// error class keeps per endpoint; failures of further templates are
	// counted under otherMessages. The result lists the top
	// MaxMessageTemplates of each class.
	maxTemplates        = 100
	MaxMessageTemplates = 20
	otherMessages       = "(further distinct messages)"
)

// errCounts counts the failures of one class.
type errCounts struct {
	count    int64
	statuses map[int]int64 // by status, for failures that had one (statusKept says which the result lists)
	// messages counts every failure by the template of its message, so
	// ids, numbers and UUIDs do not make each message a cause of its own,
	// and keeps one whole message of each as an example.
	messages map[string]*message
	// exact maps whole messages seen, or the keys of KeyedErrors, to
	// their template's entry, so that a failure that repeats (the usual
	// one: the same status and body) is counted with one map lookup,
	// without working out its template or allocating; buf holds the key.
	exact map[string]*message
	buf   []byte
}

// maxExact bounds errCounts.exact: messages beyond it are counted by their
// template, as if not seen before.
const maxExact = 1000

// A KeyedError is an error that formats its message only when asked, and
// can say without allocating which errors read the same: AppendKey
// appends bytes that are equal for two errors exactly when their messages
// are. Recording one whose key was seen before formats nothing.
// httpc.StatusError is one.
type KeyedError interface {
	error
	AppendKey(b []byte) []byte
}

// message is one template's count and example.
type message struct {
	example string
	n       int64
}

// addMessage counts n failures whose message has template tmpl, with
// example as one of them, and returns the template's entry.
func (e *errCounts) addMessage(tmpl, example string, n int64) *message {
	if e.messages == nil {
		e.messages = map[string]*message{}
	}
	m := e.messages[tmpl]
	if m == nil {
		if len(e.messages) >= maxTemplates {
			tmpl, example = otherMessages, ""
			if m = e.messages[tmpl]; m == nil {
				m = &message{}
				e.messages[tmpl] = m
			}
		} else {
			m = &message{example: example}
			e.messages[tmpl] = m
		}
	}
	m.n += n
	return m
}

// addErr counts one failure whose error is err.
func (e *errCounts) addErr(err error) {
	var key, msg string
	if k, ok := err.(KeyedError); ok {
		// Keys start with a zero byte, which no message does.
		e.buf = k.AppendKey(append(e.buf[:0], 0))
		if m := e.exact[string(e.buf)]; m != nil {
			m.n++
			return
		}
		key, msg = string(e.buf), err.Error()
	} else {
		msg = err.Error()
		if m := e.exact[msg]; m != nil {
			m.n++
			return
		}
		key = msg
	}
	m := e.addMessage(errclass.Template(msg), msg, 1)
	if e.exact == nil {
		e.exact = map[string]*message{}
	}
	if len(e.exact) < maxExact {
		e.exact[key] = m
	}
}

// SYNRetransmitted reports whether a connect that took d looks like one
// whose first SYN (or first few) went unanswered: Linux sends a SYN again
// after 1 s, then 2 s, 4 s, 8 s, ... later, so such connects complete just
// after 1, 3, 7, 15 or 31 s. The server's listen backlog was full.
func SYNRetransmitted(d time.Duration) bool {
	for k := time.Second; k <= 31*time.Second; k = 2*k + time.Second {
		if d >= k && d < k+300*time.Millisecond {
			return true
		}
	}
	return false
}

// empty reports whether c counted nothing.
func (c *tally) empty() bool { return c.requests == 0 && c.notSent == 0 && c.failures == 0 }

// failLate counts as failed, with class and err, an operation counted as a
// success when it ended: a stream that opened and then failed.
func (c *tally) failLate(class errclass.Class, err error) {
	c.failures++
	e := c.errClass(class)
	e.count++
	if err != nil {
		e.addErr(err)
	}
}

// tally is everything recorded about a set of operations except their
// histograms: request and failure counts, bytes, exact extremes, timing
// sums, statuses and errors.
type tally struct {
	requests, failures int64
	bytesIn, bytesOut  int64
	interim            int64            // informational (1xx) responses
	protos             map[string]int64 // responses by protocol version
	// The exact extremes and the sum of latencies, in nanoseconds, kept
	// outside the histograms (which know values only to within their
	// precision); meaningful only when requests > 0.
	latMinNs, latMaxNs int64
	svcMinNs, svcMaxNs int64
	latSumNs           int64
	// The same of the successes' latencies.
	okMinNs, okMaxNs, okSumNs int64
	// notSent counts steps that failed before sending (errclass.NotSent):
	// not requests, so in no other count.
	notSent int64
	// synRetransmits counts connects that took about 1, 3, 7, 15 or 31 s:
	// SYNs the server's kernel dropped and the client sent again.
	synRetransmits int64
	phaseSumUs     [numPhases]int64
	phaseMaxUs     [numPhases]int64
	statuses       map[int]int64
	errors         map[errclass.Class]*errCounts
}

// add counts one sample whose latency and service time are latNs and svcNs.
func (c *tally) add(s *Sample, latNs, svcNs int64) {
	if s.Class == errclass.NotSent {
		c.notSent++
		e := c.errClass(s.Class)
		e.count++
		if s.Err != nil {
			e.addErr(s.Err)
		}
		return
	}
	if c.requests == 0 {
		c.latMinNs, c.latMaxNs, c.svcMinNs, c.svcMaxNs = latNs, latNs, svcNs, svcNs
	} else {
		c.latMinNs, c.latMaxNs = min(c.latMinNs, latNs), max(c.latMaxNs, latNs)
		c.svcMinNs, c.svcMaxNs = min(c.svcMinNs, svcNs), max(c.svcMaxNs, svcNs)
	}
	c.latSumNs += latNs
	if s.Class == errclass.None {
		if c.okSumNs == 0 && c.okMaxNs == 0 {
			c.okMinNs = latNs
		}
		c.okMinNs, c.okMaxNs = min(c.okMinNs, latNs), max(c.okMaxNs, latNs)
		c.okSumNs += latNs
	}
	c.requests++
	c.bytesIn += s.BytesIn
	c.bytesOut += s.BytesOut
	c.interim += int64(s.Interim)
	if s.Proto != "" {
		if c.protos == nil {
			c.protos = map[string]int64{}
		}
		c.protos[s.Proto]++
	}
	if SYNRetransmitted(s.Timing.Connect) {
		c.synRetransmits++
	}
	for i, d := range phasesOf(&s.Timing) {
		us := micros(d)
		c.phaseSumUs[i] += us
		c.phaseMaxUs[i] = max(c.phaseMaxUs[i], us)
	}
	if s.Status != 0 {
		if c.statuses == nil {
			c.statuses = map[int]int64{}
		}
		c.statuses[s.Status]++
	}
	if s.Class == errclass.None {
		return
	}
	c.failures++
	e := c.errClass(s.Class)
	e.count++
	if s.Status != 0 {
		if e.statuses == nil {
			e.statuses = map[int]int64{}
		}
		e.statuses[s.Status]++
	}
	if s.Err != nil {
		e.addErr(s.Err)
	}
}

func (c *tally) errClass(class errclass.Class) *errCounts {
	if c.errors == nil {
		c.errors = map[errclass.Class]*errCounts{}
	}
	e := c.errors[class]
	if e == nil {
		e = &errCounts{}
		c.errors[class] = e
	}
	return e
}

// merge adds o into c.
func (c *tally) merge(o *tally) {
	if o.requests > 0 {
		if c.requests == 0 {
			c.latMinNs, c.latMaxNs, c.svcMinNs, c.svcMaxNs = o.latMinNs, o.latMaxNs, o.svcMinNs, o.svcMaxNs
		} else {
			c.latMinNs, c.latMaxNs = min(c.latMinNs, o.latMinNs), max(c.latMaxNs, o.latMaxNs)
			c.svcMinNs, c.svcMaxNs = min(c.svcMinNs, o.svcMinNs), max(c.svcMaxNs, o.svcMaxNs)
		}
	}
	c.latSumNs += o.latSumNs
	if o.okMaxNs > 0 {
		if c.okMaxNs == 0 {
			c.okMinNs = o.okMinNs
		}
		c.okMinNs, c.okMaxNs = min(c.okMinNs, o.okMinNs), max(c.okMaxNs, o.okMaxNs)
		c.okSumNs += o.okSumNs
	}
	c.requests += o.requests
	c.failures += o.failures
	c.notSent += o.notSent
	c.synRetransmits += o.synRetransmits
	c.bytesIn += o.bytesIn
	c.interim += o.interim
	mergeCounts(&c.protos, o.protos)
	c.bytesOut += o.bytesOut
	for i := range c.phaseSumUs {
		c.phaseSumUs[i] += o.phaseSumUs[i]
		c.phaseMaxUs[i] = max(c.phaseMaxUs[i], o.phaseMaxUs[i])
	}
	mergeCounts(&c.statuses, o.statuses)
	for class, oe := range o.errors {
		e := c.errClass(class)
		e.count += oe.count
		mergeCounts(&e.statuses, oe.statuses)
		for tmpl, m := range oe.messages {
			e.addMessage(tmpl, m.example, m.n)
		}
	}
}

// reset empties c, keeping its maps' storage.
func (c *tally) reset() {
	statuses, errors := c.statuses, c.errors
	clear(statuses)
	clear(errors)
	*c = tally{statuses: statuses, errors: errors}
}

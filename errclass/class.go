// Package errclass names the causes of failed operations and explains each
// with a one-line hint. Every failure surge reports carries exactly one Class.
package errclass

// A Class names why an operation failed. The zero value, None, means it did
// not fail.
type Class string

// The classes surge reports. Their string values appear in result documents
// and thresholds, so they never change.
const (
	None           Class = ""
	DNS            Class = "dns"
	ConnectRefused Class = "connect_refused"
	ConnectTimeout Class = "connect_timeout"
	Reset          Class = "reset"
	Timeout        Class = "timeout"
	Closed         Class = "closed"
	Protocol       Class = "protocol"
	TLS            Class = "tls"
	LocalPorts     Class = "local_ports"
	LocalFDs       Class = "local_fds"
	HTTP4xx        Class = "http_4xx"
	HTTP5xx        Class = "http_5xx"
	Check          Class = "check"
	Dropped        Class = "dropped"
	Interrupted    Class = "interrupted"
	// NotSent is a step that failed before anything was sent: a URL,
	// header or body built at run time that is invalid, an expression
	// that failed. It is not a request: it is counted apart, as drops are.
	NotSent Class = "not_sent"
	// Other groups failures no rule recognises; they keep their message.
	Other Class = "other"
)

var hints = map[Class]string{
	DNS:            "name lookup failed: check the host name and the resolver",
	ConnectRefused: "nothing listens on that port, or the server's accept queue overflowed and it refused: is the server up?",
	ConnectTimeout: "SYN not answered in time: the server's SYN backlog is full, or a firewall drops packets",
	Reset:          "the server (or a proxy) reset the connection: it crashed, hit a limit, or closed a busy socket",
	Timeout:        "connected, but the response did not arrive within the timeout: the server accepted and did not answer",
	Closed:         "the server closed the connection before the response was complete",
	Protocol:       "the response broke HTTP (malformed status line, header or chunk framing, or a head over the size limit): look at what the server, or a proxy in front of it, sends",
	TLS:            "TLS handshake or certificate failure",
	LocalPorts:     "the generator ran out of ephemeral ports (EADDRNOTAVAIL): widen ip_local_port_range or use --local-addrs",
	LocalFDs:       "the generator hit its open-files limit (EMFILE/ENFILE): raise ulimit -n",
	HTTP4xx:        "the server rejected the request (4xx): check the request, its auth and its data",
	HTTP5xx:        "the server failed to handle the request (5xx): look at its logs",
	Check:          "the response arrived but failed an expectation",
	Dropped:        "an arrival found no free virtual user and was not sent: raise --max-users",
	Interrupted:    "still in flight when the run stopped and the grace period ran out",
	NotSent:        "the step failed before anything was sent (a URL, header or body built at run time is invalid, or an expression failed); nothing reached the server: see the sample messages",
	Other:          "an error no rule recognises; see the sample messages",
}

// Hint returns a one-line explanation of c and what to do about it.
func (c Class) Hint() string { return hints[c] }

// Known reports whether c is one of the classes above.
func (c Class) Known() bool { _, ok := hints[c]; return ok }

// All lists every class, in the order reports show them.
func All() []Class {
	all := []Class{DNS, ConnectRefused, ConnectTimeout, Reset, Timeout, Closed, Protocol, TLS,
		LocalPorts, LocalFDs, HTTP4xx, HTTP5xx}
	all = append(all, grpcClasses...)
	return append(all, Check, Dropped, Interrupted, NotSent, Other)
}

// FromStatus returns the class of an HTTP status code: HTTP4xx, HTTP5xx, or
// None for everything below 400.
func FromStatus(code int) Class {
	switch {
	case code >= 500:
		return HTTP5xx
	case code >= 400:
		return HTTP4xx
	}
	return None
}

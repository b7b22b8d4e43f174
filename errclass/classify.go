package errclass

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// ErrInterrupted is the cancellation cause surge uses when a run stops and
// the grace period for in-flight operations has run out. Operations that
// fail with it (directly or as a context's cause) are classed Interrupted.
var ErrInterrupted = errors.New("interrupted: the run stopped before the operation finished")

// ErrProtocol is matched (errors.Is) by the errors of responses that break
// the protocol: a malformed status line or header, a head longer than the
// limit, bad chunk framing. They are classed Protocol.
var ErrProtocol = errors.New("protocol violation")

// A Phase says how far an operation had come when it failed. The same error
// means different things before and after the connection is established: a
// timeout while dialing is a connect timeout, after it a response timeout.
type Phase int

// Phases in the order an operation passes through them.
const (
	PhaseUnknown Phase = iota
	PhaseDNS           // resolving the host name
	PhaseConnect       // dialing TCP
	PhaseTLS           // TLS handshake
	PhaseRequest       // connected: sending the request or waiting for and reading the response
)

// Classify returns the class of err, which happened during phase. A nil err
// is None. Errors no rule recognises are Other; callers keep their message.
func Classify(err error, phase Phase) Class {
	if err == nil {
		return None
	}
	if errors.Is(err, ErrInterrupted) {
		return Interrupted
	}
	if errors.Is(err, ErrProtocol) {
		return Protocol
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.EMFILE, syscall.ENFILE:
			return LocalFDs
		case syscall.EADDRNOTAVAIL:
			return LocalPorts
		case syscall.EADDRINUSE:
			if phase <= PhaseConnect {
				return LocalPorts
			}
		case syscall.ECONNREFUSED:
			return ConnectRefused
		case syscall.ECONNRESET:
			return Reset
		case syscall.EPIPE, syscall.ECONNABORTED:
			return Closed
		case syscall.ETIMEDOUT:
			return timeoutIn(phase)
		}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return DNS
	}
	if isTLS(err) {
		return TLS
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return timeoutIn(phase)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return Closed
	}
	msg := err.Error()
	if strings.Contains(msg, "stream error: ") && strings.Contains(msg, "received from peer") {
		// An HTTP/2 RST_STREAM from the server: the stream-level reset.
		return Reset
	}
	for _, s := range protocolMessages {
		if strings.Contains(msg, s) {
			return Protocol
		}
	}
	for _, s := range closedMessages {
		if strings.Contains(msg, s) {
			return Closed
		}
	}
	if phase == PhaseTLS {
		return TLS
	}
	return Other
}

// protocolMessages are net/http's unexported errors for a response that
// breaks HTTP. They come before closedMessages: net/http reports a
// malformed response as "transport connection broken: malformed HTTP
// response".
var protocolMessages = []string{
	"malformed HTTP",        // status line, version, status code, response
	"malformed MIME header", // header lines
	"server response headers exceeded",
	"unsupported transfer encoding",
	"invalid Trailer key",
	"too many 1xx informational responses",
	"message cannot contain multiple Content-Length headers",
	"bad Content-Length",
	"chunk length", // "invalid byte in chunk length", "http chunk length too large"
	"malformed chunked encoding",
}

// closedMessages are net/http's unexported errors for a connection the
// server closed mid-exchange.
var closedMessages = []string{
	"server closed idle connection",
	"transport connection broken",
	"connection closed",
	"unexpected EOF",
	"server sent GOAWAY and closed the connection", // HTTP/2
}

func timeoutIn(phase Phase) Class {
	switch phase {
	case PhaseDNS:
		return DNS
	case PhaseConnect:
		return ConnectTimeout
	case PhaseTLS:
		return TLS
	}
	return Timeout
}

func isTLS(err error) bool {
	var (
		rec      tls.RecordHeaderError
		alert    tls.AlertError
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
	)
	return errors.As(err, &rec) || errors.As(err, &alert) || errors.As(err, &verify) ||
		errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid)
}

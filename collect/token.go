package collect

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// TokenEnv is the environment variable that holds the shared token when
// --token is not given.
const TokenEnv = "SURGE_TOKEN"

// IsLoopback reports whether host (a name or an address, without a port)
// is only reachable from this machine. An empty host, which listens on
// every interface, is not.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckToken says what to do when token is empty but host is not a
// loopback address: traffic off this machine must carry a shared token.
func CheckToken(host, token string) error {
	if token != "" || IsLoopback(host) {
		return nil
	}
	where := host
	if where == "" {
		where = "every interface"
	}
	return fmt.Errorf("%s is not a loopback address, so the collector and its runners need a shared token: give the same --token (or %s in the environment) to surge collect and every surge run", where, TokenEnv)
}

// authorized reports whether r carries token; an empty token authorizes
// everything.
func authorized(r *http.Request, token string) bool {
	if token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

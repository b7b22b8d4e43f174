package output

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// client sends every output's requests; each request has its own deadline.
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2, DisableCompression: true}}

// post sends body to url with the given headers and checks for a 2xx answer.
func post(ctx context.Context, url string, body []byte, header map[string]string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return &errStatus{code: resp.StatusCode, body: string(msg)}
	}
	return nil
}

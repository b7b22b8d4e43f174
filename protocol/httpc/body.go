package httpc

import "io"

// drain reads r to the end and discards it. Reading to the end makes the
// timing cover the whole body and lets net/http reuse the connection.
func drain(r io.Reader) error {
	_, err := io.Copy(io.Discard, r)
	return err
}

// readBody reads r to the end and returns its first limit bytes, and
// whether there were more. size is the expected length, or -1 if unknown;
// it only sizes the buffer.
func readBody(r io.Reader, size, limit int64) (body []byte, truncated bool, err error) {
	hint := int64(512)
	if size >= 0 {
		hint = size + 1 // room to see EOF without growing
	}
	buf := make([]byte, 0, min(hint, limit+1))
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow
		}
		room := buf[len(buf):cap(buf)]
		if left := limit - int64(len(buf)); int64(len(room)) > left {
			room = room[:left]
		}
		n, err := r.Read(room)
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
	n, err := io.Copy(io.Discard, r)
	return buf, n > 0, err
}

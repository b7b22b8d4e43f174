package errclass

import "strings"

// Template returns msg with what varies between otherwise equal messages
// replaced, so that failures of one cause group under one template: UUIDs
// become {uuid}, hexadecimal numbers (0x… or runs of eight or more hex
// digits) {hex}, and numbers {n}, a unit that follows a number staying
// ("took {n}ms"). An HTTP status ("status 503") is kept, since it tells
// causes apart. A message without digits is returned as it is.
func Template(msg string) string {
	if !strings.ContainsAny(msg, "0123456789") {
		return msg
	}
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); {
		c := msg[i]
		if !isWord(c) || i > 0 && isWord(msg[i-1]) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(msg) && isWord(msg[j]) {
			j++
		}
		if isUUID(msg[i:]) {
			b.WriteString("{uuid}")
			i += 36
			continue
		}
		b.WriteString(wordTemplate(msg[i:j], strings.HasSuffix(msg[:i], "status ")))
		i = j
	}
	return b.String()
}

// wordTemplate returns the template of one word (letters, digits, _).
func wordTemplate(w string, afterStatus bool) string {
	digits, hex := 0, true
	for k := 0; k < len(w); k++ {
		switch c := w[k]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			hex = false
		}
	}
	lead := 0
	for lead < len(w) && w[lead] >= '0' && w[lead] <= '9' {
		lead++
	}
	switch {
	case digits == 0:
		return w
	case afterStatus && lead == 3 && len(w) == 3:
		return w
	case len(w) > 2 && (w[:2] == "0x" || w[:2] == "0X") && allHex(w[2:]):
		return "{hex}"
	case lead == len(w):
		return "{n}"
	case hex && len(w) >= 8:
		return "{hex}"
	case lead > 0 && len(w)-lead <= 3 && allLetters(w[lead:]):
		return "{n}" + w[lead:] // 150ms, 3s, 10KB
	case digits*2 >= len(w) && len(w) >= 6:
		return "{id}" // mostly digits: an identifier
	}
	return w
}

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func allHex(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

func allLetters(s string) bool {
	for k := 0; k < len(s); k++ {
		if c := s[k]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// isUUID reports whether s starts with a UUID (8-4-4-4-12 hex digits) that
// a word character does not continue.
func isUUID(s string) bool {
	if len(s) < 36 || len(s) > 36 && isWord(s[36]) {
		return false
	}
	for k := 0; k < 36; k++ {
		switch k {
		case 8, 13, 18, 23:
			if s[k] != '-' {
				return false
			}
		default:
			if !allHex(s[k : k+1]) {
				return false
			}
		}
	}
	return true
}

package importer

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/surge-load/surge/protocol/httpc"
)

// CurlOptions configure Curl.
type CurlOptions struct {
	// ReadFile reads the files of -d @file and -F name=@file; nil means
	// os.ReadFile.
	ReadFile func(name string) ([]byte, error)
}

// Curl imports curl commands, as written in API documentation, into a
// scenario with one step per command, in order. Each input may hold
// several commands, one per line or joined with ; or &&; lines may be
// continued with a backslash, and a leading "$ " prompt is ignored. The
// options understood are those that shape the request: -X, -H, -d and its
// variants, --data-urlencode, --json, -F, -u, -G, -I, -A, -e, -b and --url;
// options that only change curl's output or connection handling (-s, -v,
// -L, -k, -o, -m, …) are ignored, and any other option is an error.
func Curl(commands []string, opts CurlOptions) (*File, error) {
	if opts.ReadFile == nil {
		opts.ReadFile = os.ReadFile
	}
	f := &File{Header: []string{"Imported by surge import curl from " + plural(len(commands), "argument") + "."}}
	sc := Scenario{Name: "curl"}
	n := 0
	var ignored []string
	for ai, src := range commands {
		words, err := shellWords(src)
		if err != nil {
			we := err.(*wordError)
			return nil, curlError(ai, len(commands), src, we.offset, we.msg, "close it, or quote the command as your shell would")
		}
		for _, cmd := range splitCommands(words) {
			n++
			c := curlCmd{arg: ai, args: len(commands), src: src, read: opts.ReadFile}
			s, ign, err := c.parse(cmd)
			if err != nil {
				return nil, err
			}
			ignored = append(ignored, ign...)
			sc.Flow = append(sc.Flow, s)
		}
	}
	if n == 0 {
		return nil, &Error{Source: "curl", Msg: "no curl command", Fix: "pass commands such as 'curl -X POST https://api.example.com/v1/users -d name=ann'"}
	}
	f.Header[0] = fmt.Sprintf("Imported by surge import curl: %s.", plural(n, "command"))
	if len(ignored) > 0 {
		f.Header = append(f.Header, "Options that do not change the request were ignored: "+strings.Join(uniq(ignored), " ")+".")
	}
	relativize(f, []*Scenario{&sc})
	f.Scenarios = []Scenario{sc}
	return f, nil
}

func curlError(arg, args int, src string, offset int, msg, fix string) *Error {
	source := "curl command"
	if args > 1 {
		source = fmt.Sprintf("curl command %d", arg+1)
	}
	line, col := lineCol([]byte(src), int64(offset))
	return &Error{Source: source, Line: line, Col: col, Msg: msg, Fix: fix}
}

// splitCommands splits words at separators into commands, each starting
// with its curl word (a prompt "$" before it is dropped).
func splitCommands(words []word) [][]word {
	var out [][]word
	var cur []word
	for _, w := range words {
		if w.sep {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		if len(cur) == 0 && (w.text == "$" || w.text == ">") {
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// curlCmd parses one command.
type curlCmd struct {
	arg, args int
	src       string
	read      func(string) ([]byte, error)
}

func (c *curlCmd) fail(w word, fix, format string, a ...any) *Error {
	return curlError(c.arg, c.args, c.src, w.offset, fmt.Sprintf(format, a...), fix)
}

// Options of curl by the number of values they take.
var (
	curlIgnoredFlags = map[string]bool{"-s": true, "--silent": true, "-S": true, "--show-error": true, "-v": true, "--verbose": true,
		"-L": true, "--location": true, "-k": true, "--insecure": true, "-i": true, "--include": true, "--compressed": true,
		"-f": true, "--fail": true, "--fail-with-body": true, "-N": true, "--no-buffer": true, "--http1.1": true, "--http2": true,
		"--http2-prior-knowledge": true, "-g": true, "--globoff": true, "-#": true, "--progress-bar": true, "-l": true, "-n": true, "--netrc": true}
	curlIgnoredValues = map[string]bool{"-o": true, "--output": true, "-w": true, "--write-out": true, "-m": true, "--max-time": true,
		"--connect-timeout": true, "--retry": true, "-x": true, "--proxy": true, "--cacert": true, "-c": true, "--cookie-jar": true,
		"--resolve": true, "--max-redirs": true, "-D": true, "--dump-header": true, "--limit-rate": true}
	curlValues = map[string]bool{"-X": true, "--request": true, "-H": true, "--header": true, "-d": true, "--data": true,
		"--data-ascii": true, "--data-binary": true, "--data-raw": true, "--data-urlencode": true, "--json": true,
		"-F": true, "--form": true, "--form-string": true, "-u": true, "--user": true, "-A": true, "--user-agent": true,
		"-e": true, "--referer": true, "-b": true, "--cookie": true, "--url": true, "--oauth2-bearer": true}
	curlFlags = map[string]bool{"-G": true, "--get": true, "-I": true, "--head": true}
)

// parse turns one command into a step; it returns the ignored options.
func (c *curlCmd) parse(ws []word) (Step, []string, error) {
	if ws[0].text != "curl" {
		return Step{}, nil, c.fail(ws[0], "start every command with curl", "%q is not curl", ws[0].text)
	}
	var (
		s        Step
		rawURL   string
		urlWord  word
		method   string
		headers  []string
		data     []string
		jsonData []string
		form     [][2]string
		get      bool
		ignored  []string
		isJSON   bool
	)
	// expand turns -sSL into -s -S -L and -XPOST into -X POST.
	var args []word
	for _, w := range ws[1:] {
		t := w.text
		if len(t) > 2 && t[0] == '-' && t[1] != '-' {
			if curlValues[t[:2]] || curlIgnoredValues[t[:2]] {
				args = append(args, word{text: t[:2], offset: w.offset}, word{text: t[2:], offset: w.offset + 2})
				continue
			}
			all := true
			for _, r := range t[1:] {
				if !curlIgnoredFlags["-"+string(r)] && !curlFlags["-"+string(r)] {
					all = false
				}
			}
			if all {
				for i, r := range t[1:] {
					args = append(args, word{text: "-" + string(r), offset: w.offset + 1 + i})
				}
				continue
			}
		}
		if name, val, ok := strings.Cut(t, "="); ok && strings.HasPrefix(t, "--") && (curlValues[name] || curlIgnoredValues[name]) {
			args = append(args, word{text: name, offset: w.offset}, word{text: val, offset: w.offset + len(name) + 1})
			continue
		}
		args = append(args, w)
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		opt := w.text
		if !strings.HasPrefix(opt, "-") || opt == "-" {
			if rawURL != "" {
				return s, nil, c.fail(w, "give one URL per command; quote a URL that holds spaces or &", "a second URL %q", opt)
			}
			rawURL, urlWord = opt, w
			continue
		}
		switch {
		case curlIgnoredFlags[opt]:
			ignored = append(ignored, opt)
			continue
		case curlFlags[opt]:
			switch opt {
			case "-G", "--get":
				get = true
			case "-I", "--head":
				method = "HEAD"
			}
			continue
		case !curlValues[opt] && !curlIgnoredValues[opt]:
			return s, nil, c.fail(w, "remove it, or write the request in the scenario file by hand (see docs/scenarios.md)", "curl option %s is not understood", opt)
		}
		if i+1 >= len(args) {
			return s, nil, c.fail(w, "give it a value", "%s needs a value", opt)
		}
		i++
		v := args[i]
		if curlIgnoredValues[opt] {
			ignored = append(ignored, opt)
			continue
		}
		switch opt {
		case "-X", "--request":
			method = strings.ToUpper(v.text)
			if !httpc.ValidToken(method) {
				return s, nil, c.fail(v, "give a method such as POST", "%q is not an HTTP method", v.text)
			}
		case "-H", "--header":
			headers = append(headers, v.text)
		case "-d", "--data", "--data-ascii", "--data-binary":
			d, err := c.dataValue(v, opt == "--data-binary")
			if err != nil {
				return s, nil, err
			}
			data = append(data, d)
		case "--data-raw":
			data = append(data, v.text)
		case "--data-urlencode":
			data = append(data, urlencodeData(v.text))
		case "--json":
			d, err := c.dataValue(v, true)
			if err != nil {
				return s, nil, err
			}
			jsonData = append(jsonData, d)
			isJSON = true
		case "-F", "--form", "--form-string":
			name, val, ok := strings.Cut(v.text, "=")
			if !ok {
				return s, nil, c.fail(v, "write it as name=value", "form field %q has no =", v.text)
			}
			if opt != "--form-string" && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
				b, err := c.read(strings.SplitN(val[1:], ";", 2)[0])
				if err != nil {
					return s, nil, c.fail(v, "give a file that exists, relative to the working directory", "read the form file: %v", err)
				}
				val = string(b)
			}
			form = append(form, [2]string{name, val})
		case "-u", "--user":
			headers = append(headers, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(v.text)))
		case "--oauth2-bearer":
			headers = append(headers, "Authorization: Bearer "+v.text)
		case "-A", "--user-agent":
			headers = append(headers, "User-Agent: "+v.text)
		case "-e", "--referer":
			headers = append(headers, "Referer: "+v.text)
		case "-b", "--cookie":
			if !strings.Contains(v.text, "=") {
				return s, nil, c.fail(v, "give the cookies as name=value; cookies set by responses are kept by the scenario's cookie jar", "-b %s reads a cookie file, which cannot be imported", v.text)
			}
			headers = append(headers, "Cookie: "+v.text)
		case "--url":
			if rawURL != "" {
				return s, nil, c.fail(v, "give one URL per command", "a second URL %q", v.text)
			}
			rawURL, urlWord = v.text, v
		}
	}
	if rawURL == "" {
		return s, nil, c.fail(ws[0], "add the URL, as in curl https://api.example.com/v1/users", "the command has no URL")
	}
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL // as curl does
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return s, nil, c.fail(urlWord, "give an http:// or https:// URL", "%q is not an http or https URL", rawURL)
	}
	hdr := yaml.MapSlice{}
	contentType := ""
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return s, nil, c.fail(ws[0], "write headers as 'Name: value'", "header %q has no colon", h)
		}
		k, v = http.CanonicalHeaderKey(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !httpc.ValidToken(k) {
			return s, nil, c.fail(ws[0], "write headers as 'Name: value'", "header name %q is not valid", k)
		}
		if k == "Content-Type" {
			contentType = v
		}
		hdr = setItem(hdr, k, literal(v))
	}
	s.Method = method
	body := strings.Join(data, "&")
	switch {
	case isJSON:
		body = strings.Join(append(data, jsonData...), "")
		if contentType == "" {
			contentType = "application/json"
		}
		if !hasKey(hdr, "Accept") {
			hdr = setItem(hdr, "Accept", "application/json")
		}
	case get && len(data) > 0:
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += body
		body, data = "", nil
		if method == "" {
			method = "GET"
		}
	}
	if len(form) > 0 {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		_ = mw.SetBoundary("surge-import-boundary")
		for _, kv := range form {
			_ = mw.WriteField(kv[0], kv[1])
		}
		_ = mw.Close()
		body = buf.String()
		contentType = mw.FormDataContentType()
		hdr = setItem(hdr, "Content-Type", contentType)
	}
	if s.Method = method; s.Method == "" {
		s.Method = "GET"
		if body != "" || len(form) > 0 {
			s.Method = "POST"
		}
	}
	u.Fragment, u.RawFragment = "", "" // not sent
	s.URL = literal(u.String())
	if body != "" && len(form) == 0 {
		switch {
		case strings.HasPrefix(contentType, "application/json") || (isJSON && contentType == ""):
			if v, err := jsonValue([]byte(body)); err == nil {
				s.JSON = literalTree(v)
				hdr = without(hdr, "Content-Type")
				break
			}
			s.Body = ptr(literal(body))
			hdr = setItem(hdr, "Content-Type", contentType)
		case contentType == "" || strings.HasPrefix(contentType, "application/x-www-form-urlencoded"):
			if fm, ok := formOf(body); ok {
				s.Form = fm
				hdr = without(hdr, "Content-Type")
				break
			}
			s.Body = ptr(literal(body))
			hdr = setItem(hdr, "Content-Type", "application/x-www-form-urlencoded")
		default:
			s.Body = ptr(literal(body))
		}
	}
	if len(form) > 0 {
		s.Body = ptr(literal(body)) // the multipart body, with its boundary in Content-Type
	}
	s.Headers = hdr
	return s, ignored, nil
}

// dataValue is the value of -d: @file reads the file; other data loses its
// newlines, as curl's -d does, unless binary.
func (c *curlCmd) dataValue(v word, binary bool) (string, error) {
	if strings.HasPrefix(v.text, "@") {
		b, err := c.read(v.text[1:])
		if err != nil {
			return "", c.fail(v, "give a file that exists, relative to the working directory, or the data itself", "read the data file: %v", err)
		}
		v.text = string(b)
	}
	if !binary {
		v.text = strings.NewReplacer("\r", "", "\n", "").Replace(v.text)
	}
	return v.text, nil
}

// urlencodeData encodes the value of --data-urlencode as curl does.
func urlencodeData(s string) string {
	if name, val, ok := strings.Cut(s, "="); ok {
		if name == "" {
			return url.QueryEscape(val)
		}
		return name + "=" + url.QueryEscape(val)
	}
	return url.QueryEscape(s)
}

// formOf parses a urlencoded body into fields if it is one, in order.
func formOf(body string) (yaml.MapSlice, bool) {
	var out yaml.MapSlice
	seen := map[string]bool{}
	for _, pair := range strings.Split(body, "&") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || k == "" {
			return nil, false
		}
		uk, err1 := url.QueryUnescape(k)
		uv, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil || seen[uk] {
			return nil, false // a form map has one value per field
		}
		seen[uk] = true
		out = append(out, yaml.MapItem{Key: literal(uk), Value: literal(uv)})
	}
	return out, len(out) > 0
}

func hasKey(m yaml.MapSlice, k string) bool {
	for _, it := range m {
		if it.Key == k {
			return true
		}
	}
	return false
}

func without(m yaml.MapSlice, k string) yaml.MapSlice {
	out := m[:0:0]
	for _, it := range m {
		if it.Key != k {
			out = append(out, it)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// relativize sets f.Target to the origin most steps use and makes their
// URLs relative to it.
func relativize(f *File, scs []*Scenario) {
	count := map[string]int{}
	var order []string
	var walk func(ss []Step, fn func(*Step))
	walk = func(ss []Step, fn func(*Step)) {
		for i := range ss {
			if ss[i].Steps != nil {
				walk(ss[i].Steps, fn)
			} else if ss[i].URL != "" {
				fn(&ss[i])
			}
		}
	}
	for _, sc := range scs {
		for _, ss := range [][]Step{sc.Flow, sc.Tasks} {
			walk(ss, func(s *Step) {
				if o, _, ok := splitTarget(s.URL); ok {
					if count[o] == 0 {
						order = append(order, o)
					}
					count[o]++
				}
			})
		}
	}
	best := ""
	for _, o := range order {
		if count[o] > count[best] {
			best = o
		}
	}
	if best == "" {
		return
	}
	f.Target = best
	for _, sc := range scs {
		for _, ss := range [][]Step{sc.Flow, sc.Tasks} {
			walk(ss, func(s *Step) {
				if o, rest, ok := splitTarget(s.URL); ok && o == best {
					s.URL = rest
				}
			})
		}
	}
}

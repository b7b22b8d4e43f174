package metrics

import (
	"sort"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// msgTable gathers the message templates of each error class with their
// counts by endpoint, for the result's error table.
type msgTable map[errclass.Class]map[string]*result.Message

// add counts n failures of class with message template tmpl at endpoint
// (empty if unknown); example is one whole message of them.
func (t msgTable) add(class errclass.Class, tmpl, example, endpoint string, n int64) {
	byTmpl := t[class]
	if byTmpl == nil {
		byTmpl = map[string]*result.Message{}
		t[class] = byTmpl
	}
	m := byTmpl[tmpl]
	if m == nil {
		m = &result.Message{Message: tmpl, Example: example}
		byTmpl[tmpl] = m
	}
	m.Count += n
	if endpoint != "" {
		if m.Endpoints == nil {
			m.Endpoints = map[string]int64{}
		}
		m.Endpoints[endpoint] += n
	}
}

// addTally adds the messages counted in c at endpoint.
func (t msgTable) addTally(c *tally, endpoint string) {
	for class, e := range c.errors {
		for tmpl, m := range e.messages {
			t.add(class, tmpl, m.example, endpoint, m.n)
		}
	}
}

// top returns class's most frequent MaxMessageTemplates templates, the rest
// counted together under otherMessages.
func (t msgTable) top(class errclass.Class) []result.Message {
	var out []result.Message
	for _, m := range t[class] {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Message == otherMessages) != (b.Message == otherMessages) {
			return b.Message == otherMessages
		}
		return a.Count > b.Count || a.Count == b.Count && a.Message < b.Message
	})
	if len(out) <= MaxMessageTemplates {
		return out
	}
	rest := result.Message{Message: otherMessages}
	for _, m := range out[MaxMessageTemplates:] {
		rest.Count += m.Count
		mergeCounts(&rest.Endpoints, m.Endpoints)
	}
	return append(out[:MaxMessageTemplates], rest)
}

package importer

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml"

	"github.com/surge-load/surge/internal/expr"
)

// identifier turns s into a name an expression can use: letters, digits
// and underscores, not starting with a digit, in lowerCamelCase where s had
// separators ("base-url" is baseUrl).
func identifier(s string) string {
	var b strings.Builder
	upper := false
	for _, r := range s {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'):
			if b.Len() == 0 && unicode.IsDigit(r) {
				b.WriteByte('v')
			}
			if upper && b.Len() > 0 {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return "v"
	}
	return b.String()
}

// namer hands out unique variable names.
type namer struct{ used map[string]bool }

// name returns a free name made from want.
func (n *namer) name(want string) string {
	if n.used == nil {
		n.used = map[string]bool{}
	}
	base := identifier(want)
	if expr.Reserved(base) {
		base += "Value"
	}
	name := base
	for i := 2; n.used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	n.used[name] = true
	return name
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// setItem sets key in m, replacing a value of the same key.
func setItem(m yaml.MapSlice, key string, v any) yaml.MapSlice {
	for i := range m {
		if m[i].Key == key {
			m[i].Value = v
			return m
		}
	}
	return append(m, yaml.MapItem{Key: key, Value: v})
}

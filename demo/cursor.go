package demo

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// cursor marks the position after the last item of a page in a folder
// listing: the sort key and id of that item. Clients treat its encoded
// form as opaque.
type cursor struct {
	sortBy string // sortByCreatedAt or sortByName
	nanos  int64  // createdAt key
	name   string // name key
	id     int64
}

// cursorAfter returns the cursor just past it in sortBy order.
func cursorAfter(sortBy string, it folderItem) cursor {
	return cursor{sortBy: sortBy, nanos: it.createdNanos, name: it.Name, id: it.ID}
}

// precedes reports whether it sorts strictly after the cursor, that is,
// belongs to a later page.
func (c cursor) precedes(it folderItem) bool {
	if c.sortBy == sortByName {
		return cmp.Or(strings.Compare(c.name, it.Name), cmp.Compare(c.id, it.ID)) < 0
	}
	return cmp.Or(cmp.Compare(c.nanos, it.createdNanos), cmp.Compare(c.id, it.ID)) < 0
}

// encode returns the opaque text form: base64url of "c:NANOS:ID" or
// "n:ID:NAME".
func (c cursor) encode() string {
	var s string
	if c.sortBy == sortByName {
		s = "n:" + strconv.FormatInt(c.id, 10) + ":" + c.name
	} else {
		s = "c:" + strconv.FormatInt(c.nanos, 10) + ":" + strconv.FormatInt(c.id, 10)
	}
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// decodeCursor parses the text form made by encode.
func decodeCursor(s string) (cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, fmt.Errorf("invalid cursor: %w", err)
	}
	kind, rest, _ := strings.Cut(string(b), ":")
	a, z, ok := strings.Cut(rest, ":")
	if !ok {
		return cursor{}, errors.New("invalid cursor: malformed")
	}
	switch kind {
	case "c":
		nanos, err1 := strconv.ParseInt(a, 10, 64)
		id, err2 := strconv.ParseInt(z, 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return cursor{}, fmt.Errorf("invalid cursor: %w", err)
		}
		return cursor{sortBy: sortByCreatedAt, nanos: nanos, id: id}, nil
	case "n":
		id, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return cursor{}, fmt.Errorf("invalid cursor: %w", err)
		}
		return cursor{sortBy: sortByName, name: z, id: id}, nil
	}
	return cursor{}, errors.New("invalid cursor: unknown kind")
}

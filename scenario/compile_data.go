package scenario

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/surge-load/surge/internal/expr"
)

// maxRangeItems bounds a range, whose items are computed, not stored.
const maxRangeItems = 1 << 40

// compileData builds the source called name from d. read reads a data file.
func compileData(name string, d Data, read func(string) ([]byte, error)) (*source, error) {
	s := &source{name: name, order: d.Order, fixed: -1, next: new(atomic.Uint64)}
	if s.order == "" {
		s.order = Random
	}
	switch s.order {
	case Random, Sequential, Unique:
	default:
		return nil, fmt.Errorf("order %q is not one of random, sequential, unique", d.Order)
	}
	kinds := 0
	for _, set := range []bool{d.List != nil, d.Range != nil, d.CSV != "", d.JSONL != ""} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, errors.New("a data source needs exactly one of list, range, csv and jsonl")
	}
	var items []any
	switch {
	case d.List != nil:
		items = d.List
	case d.Range != nil:
		return s, s.setRange(*d.Range)
	case d.CSV != "":
		b, err := read(d.CSV)
		if err != nil {
			return nil, err
		}
		if items, err = parseCSV(b); err != nil {
			return nil, fmt.Errorf("%s: %w", d.CSV, err)
		}
	case d.JSONL != "":
		b, err := read(d.JSONL)
		if err != nil {
			return nil, err
		}
		if items, err = parseJSONL(b); err != nil {
			return nil, fmt.Errorf("%s: %w", d.JSONL, err)
		}
	}
	if len(items) == 0 {
		return nil, errors.New("the data source has no items")
	}
	s.n = len(items)
	s.at = func(i int) any { return items[i] }
	return s, nil
}

// setRange makes s the integers of r.
func (s *source) setRange(r Range) error {
	step := r.Step
	if step == 0 {
		step = 1
	}
	if step < 0 {
		return fmt.Errorf("range step %d is negative", step)
	}
	if r.To < r.From {
		return fmt.Errorf("range from %d to %d is empty: to must be at least from", r.From, r.To)
	}
	// In uint64, To-From cannot overflow (it is at most 2^64-1).
	span := uint64(r.To) - uint64(r.From)
	if span/uint64(step) >= maxRangeItems {
		return fmt.Errorf("range from %d to %d has more than %d items", r.From, r.To, int64(maxRangeItems))
	}
	n := span/uint64(step) + 1
	if r.Format != "" {
		if out := fmt.Sprintf(r.Format, 1); strings.Contains(out, "%!") || out == r.Format {
			return fmt.Errorf("format %q does not format one integer, as in \"folder_%%d\"", r.Format)
		}
	}
	s.n = int(n)
	from, format := r.From, r.Format
	s.at = func(i int) any {
		v := from + i*step
		if format == "" {
			return v
		}
		return fmt.Sprintf(format, v)
	}
	return nil
}

// parseCSV reads a CSV file whose first row names the columns into one map
// per row.
func parseCSV(b []byte) ([]any, error) {
	r := csv.NewReader(bytes.NewReader(b))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("read the header row: %w", err)
	}
	for i, h := range header {
		header[i] = strings.TrimSpace(h)
	}
	var items []any
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return items, nil
		}
		if err != nil {
			return nil, err
		}
		row := make(map[string]any, len(header))
		for i, h := range header {
			row[h] = rec[i]
		}
		items = append(items, row)
	}
}

// jsonOffset says where in its line a JSON syntax error is, if the error
// knows.
func jsonOffset(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf(" (syntax error at byte %d)", se.Offset)
	}
	return ""
}

// parseJSONL reads one JSON value per non-empty line.
func parseJSONL(b []byte) ([]any, error) {
	var items []any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		v, err := expr.DecodeJSON(text)
		if err != nil {
			// The decoder's message quotes the file's content; a data file
			// may be a secret, so say only where.
			return nil, fmt.Errorf("line %d is not one JSON value%s", line, jsonOffset(err))
		}
		items = append(items, v)
	}
	return items, sc.Err()
}

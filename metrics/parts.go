package metrics

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/surge-load/surge/result"
)

// A PartError says why one of the parts given to Merge does not belong
// with the others. Part counts from 0, in the order the parts were given.
type PartError struct {
	Part   int
	Reason string
}

func (e *PartError) Error() string { return fmt.Sprintf("part %d %s", e.Part+1, e.Reason) }

// segmented reports whether r is a segment of a split plan, or a merge of
// such segments.
func segmented(r *result.Result) bool {
	return r.Run.Segment.Count > 1 || r.Run.Merged != nil && len(r.Run.Merged.Segments) > 0
}

// segmentsOf returns the segments r holds: the segments merged into it, or
// its own.
func segmentsOf(r *result.Result) []int {
	if m := r.Run.Merged; m != nil && len(m.Segments) > 0 {
		return m.Segments
	}
	return []int{r.Run.Segment.Index}
}

// CheckParts reports, as a *PartError, the first part that does not belong
// with the parts before it: a schema this package does not write, another
// plan (Run.PlanHash), a run given twice (Run.ID, so also a merged result
// given with one of its own parts), a start other than the first part's
// (split or not), a segment index outside its count, segments of splits
// into different counts, a segment already held by an earlier part, or
// counts that would overflow when added. Merge calls it; parts that pass merge into the result one run
// would have produced. It does not ask for every segment: see
// CheckComplete.
func CheckParts(parts []*result.Result) error {
	var hash string
	hashPart := -1
	ids := map[string]int{}
	split := -1 // the first segmented part
	held := map[int]int{}
	var sums [6]int64
	for i, p := range parts {
		fail := func(format string, args ...any) error {
			return &PartError{Part: i, Reason: fmt.Sprintf(format, args...)}
		}
		if p.SchemaVersion != result.SchemaVersion {
			return fail("has schema_version %d; this surge merges version %d", p.SchemaVersion, result.SchemaVersion)
		}
		if h := p.Run.PlanHash; h != "" {
			if hash == "" {
				hash, hashPart = h, i
			} else if h != hash {
				return fail("ran another plan than part %d (plan_hash %.12s…, not %.12s…): merge only the segments of one plan", hashPart+1, h, hash)
			}
		}
		if id := p.Run.ID; id != "" {
			if j, ok := ids[id]; ok {
				return fail("is the same run as part %d (run id %s): a part given twice, or a merged result given with one of its own parts", j+1, id)
			}
			ids[id] = i
		}
		seg := p.Run.Segment
		if seg.Count < 0 || seg.Index < 0 || seg.Count > 0 && seg.Index >= seg.Count {
			return fail("is segment %d of %d: a segment's index counts from 0 to its count - 1", seg.Index, seg.Count)
		}
		if err := addCounts(&sums, p); err != nil {
			return fail("%v", err)
		}
		// Every part, split or not, ran from the same start: parts merge
		// second by second, and two runs at different times are two runs,
		// not one run of several machines.
		if first := parts[0].Run.Start; !p.Run.Start.Equal(first) {
			return fail("started at %s, part 1 at %s: the parts of one run share one start (--start-at); parts of different runs do not merge",
				p.Run.Start.Format(time.RFC3339Nano), first.Format(time.RFC3339Nano))
		}
		if !segmented(p) {
			continue
		}
		if split < 0 {
			split = i
		} else if q := parts[split].Run; seg.Count != q.Segment.Count {
			return fail("is a segment of a split into %d, part %d of a split into %d: merge the segments of one split", seg.Count, split+1, q.Segment.Count)
		}
		for _, k := range segmentsOf(p) {
			if k < 0 || k >= seg.Count {
				return fail("holds segment %d of %d: a segment's index counts from 0 to its count - 1", k, seg.Count)
			}
			if j, ok := held[k]; ok {
				return fail("holds segment %d of %d, which part %d holds too: each segment is merged once", k, seg.Count, j+1)
			}
			held[k] = i
		}
	}
	return nil
}

// addCounts adds p's counts to sums, or says which would overflow or is
// negative.
func addCounts(sums *[6]int64, p *result.Result) error {
	check := func(name string, sum *int64, vs ...int64) error {
		for _, v := range vs {
			if v < 0 {
				return fmt.Errorf("has a negative count of %s (%d)", name, v)
			}
			if *sum > math.MaxInt64-v {
				return fmt.Errorf("has %d %s: added to the parts before it, more than a count can hold", v, name)
			}
			*sum += v
		}
		return nil
	}
	t := &p.Totals
	for i, c := range []struct {
		name string
		v    int64
	}{{"requests", t.Requests}, {"failures", t.Failures}, {"drops", t.Dropped}, {"bytes in", t.BytesIn}, {"bytes out", t.BytesOut}, {"not-sent steps", t.NotSent}} {
		if err := check(c.name, &sums[i], c.v); err != nil {
			return err
		}
	}
	for _, e := range p.Endpoints {
		if e.Requests > t.Requests || e.Failures > e.Requests || e.Requests < 0 || e.Failures < 0 {
			return fmt.Errorf("endpoint %q counts %d requests and %d failures, against %d requests in all", e.Name, e.Requests, e.Failures, t.Requests)
		}
	}
	return nil
}

// CheckComplete reports which segments of the split that segmented parts
// come from are missing, if any; a result merged by surge merge must hold
// them all. Parts of unsplit runs need no company.
func CheckComplete(parts []*result.Result) error {
	count := 0
	held := map[int]bool{}
	for _, p := range parts {
		if !segmented(p) {
			continue
		}
		count = p.Run.Segment.Count
		for _, k := range segmentsOf(p) {
			held[k] = true
		}
	}
	var missing []string
	for k := range count {
		if !held[k] {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("segment %s of %d missing: merge all %d segments of the split", strings.Join(missing, ", "), count, count)
	}
	return nil
}

// mergedRun says what the merged result of parts holds.
func mergedRun(parts []*result.Result) (*result.Merged, result.Segment) {
	m := &result.Merged{}
	seg := result.Segment{Index: 0, Count: len(parts)}
	for _, p := range parts {
		if p.Run.Merged != nil {
			m.Parts += p.Run.Merged.Parts
		} else {
			m.Parts++
		}
		if segmented(p) {
			m.Segments = append(m.Segments, segmentsOf(p)...)
			seg.Count = p.Run.Segment.Count
		}
	}
	slices.Sort(m.Segments)
	return m, seg
}

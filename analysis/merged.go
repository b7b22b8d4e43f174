package analysis

import "github.com/surge-load/surge/result"

// JudgeMerged judges res, the merge of parts, once on the whole, as a
// single run is judged (Judge), by the thresholds the parts were run with
// (ThresholdsOf).
func JudgeMerged(res *result.Result, parts []*result.Result) error {
	ths, err := ThresholdsOf(parts)
	if err != nil {
		return err
	}
	Judge(res, ths)
	return nil
}

package metrics

// mergeCounts adds the counts of src into *dst, making the map on first use
// (a nil *dst stays nil while src is empty).
func mergeCounts[K comparable](dst *map[K]int64, src map[K]int64) {
	for k, n := range src {
		if *dst == nil {
			*dst = map[K]int64{}
		}
		(*dst)[k] += n
	}
}

// Package yamlfile reads scenario files: YAML that describes user journeys
// and their load, parsed with positions (goccy/go-yaml) into a
// scenario.Spec and compiled with scenario.Compile.
//
// Every problem, whether of form (an unknown key, a wrong type, a bad
// duration, load-model keys that contradict each other) or found by
// scenario.Compile (an expression that does not compile, an undefined name,
// a weight that is not positive), is reported with the file, line and
// column it is at and a short fix, and all of them at once, up to
// scenario.MaxErrors. Unknown keys come with the closest known key. No
// input makes the parser panic; FuzzParse checks it.
//
// docs/scenarios.md is the reference of the format.
package yamlfile

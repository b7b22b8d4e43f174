// Package k8s builds the Kubernetes objects that run a scenario file split
// over N pods: a ConfigMap holding the file and every data file it names,
// an Indexed Job of N runners (surge run --segment $(JOB_COMPLETION_INDEX)/N
// --collector ...), the collector (surge collect) as a Job with a Service,
// and a Secret with the token they share. The objects are k8s.io/api types,
// printed as YAML by sigs.k8s.io/yaml; Kubernetes is the engine, surge
// builds no cluster manager of its own.
package k8s

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/k8s"
)

func newK8sCmd() *cobra.Command {
	var o k8s.Options
	cmd := &cobra.Command{
		Use:   "k8s FILE --parallelism N --image IMAGE [--namespace NS] [--collector-service NAME]",
		Short: "Print the Kubernetes manifests that run a scenario file over N pods",
		Long: `Print the objects that run the scenario FILE split over N runner pods, for
kubectl apply -f -:
  a Secret with a new random token the pods share,
  a ConfigMap with FILE and every data file it names,
  the collector (surge collect) as a Job with a Service,
  an Indexed Job of N runners, each running
    surge run /plan/FILE --segment $(JOB_COMPLETION_INDEX)/N --collector http://SERVICE:7070
  on a node of its own (pod anti-affinity), with memory requested for the
  connections its segment may hold.
The image must hold the surge binary on its PATH (see the Dockerfile).
docs/kubernetes.md walks through a run: apply, follow the collector's log,
fetch the merged result.`,
		Example: `  surge k8s plan.yaml --parallelism 4 --image registry.example.com/surge:0.1 | kubectl apply -f -
  kubectl logs -f job/surge-plan-collector`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.Parallelism < 1 {
				return invalid("--parallelism %d: want the number of runner pods, at least 1", o.Parallelism)
			}
			m, err := k8s.Build(args[0], o)
			if err != nil {
				return fileErrors(err)
			}
			for _, w := range m.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "surge: warning: %s\n", w)
			}
			b, err := m.YAML()
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			_, err = cmd.OutOrStdout().Write(b)
			if err != nil {
				return &codeError{code: exitError, err: fmt.Errorf("write the manifests: %w", err)}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.Parallelism, "parallelism", 0, "the number of runner pods, each running one segment of the plan")
	fs.StringVar(&o.Image, "image", "", "the container image with the surge binary, such as registry.example.com/surge:0.1")
	fs.StringVar(&o.Namespace, "namespace", "", "the namespace of every object (default: kubectl's current namespace)")
	fs.StringVar(&o.CollectorService, "collector-service", "", "the name of the collector's Service and Job (default: surge-FILE-collector)")
	_ = cmd.MarkFlagRequired("parallelism")
	_ = cmd.MarkFlagRequired("image")
	return cmd
}

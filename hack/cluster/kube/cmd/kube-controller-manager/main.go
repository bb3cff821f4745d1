// Command kube-controller-manager runs the built-in controllers (Deployments, Jobs, garbage
// collection, service-account tokens, ...) of the stackbench test control plane.
package main

import (
	"os"
	// CronJobs may name a time zone; the zone database must not depend on the host.
	_ "time/tzdata"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}

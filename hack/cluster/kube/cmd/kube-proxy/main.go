// Command kube-proxy programs the Service rules (iptables) on a real worker node of the stackbench
// test cluster, so that pods reach Services by their cluster IP.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-proxy/app"
)

func main() {
	os.Exit(cli.Run(app.NewProxyCommand()))
}

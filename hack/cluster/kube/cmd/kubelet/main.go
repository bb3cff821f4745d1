// Command kubelet runs pods on a real worker node of the stackbench test cluster, through
// containerd (CRI) and the CNI plugins that hack/setup.sh installs next to it.
package main

import (
	"context"
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kubelet/app"
)

func main() {
	// The kubelet derives its own cancellation from this context and from SIGTERM/SIGINT.
	os.Exit(cli.Run(app.NewKubeletCommand(context.Background())))
}

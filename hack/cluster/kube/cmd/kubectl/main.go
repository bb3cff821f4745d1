// Command kubectl is the Kubernetes command-line client, built at the same version as the test
// control plane so tests never depend on whatever kubectl the host happens to have.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	// Verbosity must be known before the command is built (it loads .kuberc and plugins), and
	// flag parsing only happens later, inside RunNoErrOutput.
	_, _ = logs.GlogSetter(cmd.GetLogVerbosity(os.Args))
	if err := cli.RunNoErrOutput(cmd.NewDefaultKubectlCommand()); err != nil {
		util.CheckErr(err)
	}
}

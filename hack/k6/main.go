// Command k6 is k6 with the stackbench output compiled in: k6's own command line, run unchanged, plus
// `--out stackbench=FILE`, which writes per-second counts and latencies binned by each sample's own time stamp.
package main

import (
	k6cmd "go.k6.io/k6/cmd"

	// Registers the stackbench output with k6.
	_ "stackbench.local/k6/persecond"
)

func main() {
	k6cmd.Execute()
}

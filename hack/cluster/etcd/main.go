// Command etcd runs the etcd server for the stackbench test control plane.
//
// etcd's own main module carries replace directives, so `go install` refuses it; this module
// depends on the published server package instead and hands control straight to it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}

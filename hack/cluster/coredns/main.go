// Command coredns is the cluster DNS of the stackbench test cluster: CoreDNS with only the plugins
// a single-host test cluster needs, so that pods on the real worker nodes resolve Service names.
//
// The stock CoreDNS build links every plugin, cloud SDKs included, and can forward queries to
// upstream resolvers. This build has no `forward` (nor any other plugin that sends queries
// elsewhere): names outside the cluster zones get no answer, and nothing leaves the machine.
package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	// Each plugin registers itself with CoreDNS when imported.
	_ "github.com/coredns/coredns/plugin/bind"       // listen on chosen addresses only (127.0.0.1, a bridge IP)
	_ "github.com/coredns/coredns/plugin/cache"      // cache answers
	_ "github.com/coredns/coredns/plugin/errors"     // log errors
	_ "github.com/coredns/coredns/plugin/health"     // liveness endpoint
	_ "github.com/coredns/coredns/plugin/kubernetes" // Service and Pod records from the API server
	_ "github.com/coredns/coredns/plugin/log"        // query log
	_ "github.com/coredns/coredns/plugin/loop"       // stop on a query loop instead of spinning
	_ "github.com/coredns/coredns/plugin/ready"      // readiness endpoint
)

// plugins are the directives a Corefile may use: the plugins imported above. `coredns -plugins`
// also lists metadata, prometheus and transfer, which CoreDNS's server and these plugins import as
// libraries; they are not directives here, so a Corefile naming them is rejected.
var plugins = []string{"bind", "cache", "errors", "health", "kubernetes", "log", "loop", "ready"}

func main() {
	// A directive's position is the order in which plugins see a query, so it must stay CoreDNS's
	// own (its plugin.cfg, compiled into dnsserver.Directives): keep that list, minus what is not
	// linked in.
	directives := slices.DeleteFunc(slices.Clone(dnsserver.Directives), func(d string) bool {
		return !slices.Contains(plugins, d)
	})
	if len(directives) != len(plugins) {
		fmt.Fprintf(os.Stderr, "coredns: CoreDNS's directive list %v lacks some of %v\n", dnsserver.Directives, plugins)
		os.Exit(2)
	}
	if err := dnsserver.SetDirectives(directives); err != nil {
		fmt.Fprintf(os.Stderr, "coredns: %v\n", err)
		os.Exit(2)
	}
	coremain.Run()
}

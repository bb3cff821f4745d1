// Command kube-router is the NetworkPolicy enforcer of the stackbench test cluster's real worker nodes: kube-router's
// network policy controller (iptables and ip sets), and nothing else of kube-router (no routing, no service proxy).
//
// kube-router enforces the policies of the pods on its own node, those whose status.hostIP is its node's address. The
// test cluster's four nodes share one network namespace and one bridge, so a single controller sees every pod's
// traffic; run once per node, the controllers would each rewrite the same top-level chains and remove each other's
// pod chains as stale. This command runs one controller and hands it every pod as if it ran on the node named by
// --hostname-override, by setting status.hostIP in its pod cache.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/cloudnativelabs/kube-router/v2/pkg/cmd"
	"github.com/cloudnativelabs/kube-router/v2/pkg/controllers/netpol"
	"github.com/cloudnativelabs/kube-router/v2/pkg/healthcheck"
	"github.com/cloudnativelabs/kube-router/v2/pkg/options"
	"github.com/cloudnativelabs/kube-router/v2/pkg/utils"
	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "kube-router: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	klog.InitFlags(nil)
	config := options.NewKubeRouterConfig()
	config.AddFlags(pflag.CommandLine)
	// Only the firewall, unless told otherwise (and then refused below).
	for name, value := range map[string]string{"run-firewall": "true", "run-router": "false", "run-service-proxy": "false"} {
		if err := pflag.CommandLine.Set(name, value); err != nil {
			return err
		}
	}
	pflag.Parse()
	if config.HelpRequested {
		pflag.Usage()
		return nil
	}
	if err := flag.Set("v", config.VLevel); err != nil {
		return err
	}
	if config.RunRouter || config.RunServiceProxy || !config.RunFirewall {
		return fmt.Errorf("this build runs the network policy controller only: leave out --run-router, --run-service-proxy and --run-firewall")
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("the network policy controller changes iptables and ip sets: run it as root")
	}
	kr, err := cmd.NewKubeRouterDefault(config)
	if err != nil {
		return fmt.Errorf("cannot reach the API server with the given --kubeconfig: %w", err)
	}
	node, err := utils.GetNodeObject(kr.Client, config.HostnameOverride)
	if err != nil {
		return fmt.Errorf("cannot read node %q (--hostname-override): %w", config.HostnameOverride, err)
	}
	nodeIP, err := utils.GetPrimaryNodeIP(node)
	if err != nil {
		return fmt.Errorf("node %q has no address: %w", node.Name, err)
	}

	stop := make(chan struct{})
	factory := informers.NewSharedInformerFactory(kr.Client, 0)
	pods := factory.Core().V1().Pods().Informer()
	// Every scheduled pod counts as one of this node's pods (see the package comment).
	if err := pods.SetTransform(func(obj interface{}) (interface{}, error) {
		if pod, ok := obj.(*corev1.Pod); ok && pod.Status.HostIP != "" {
			pod.Status.HostIP = nodeIP.String()
			pod.Status.HostIPs = []corev1.HostIP{{IP: nodeIP.String()}}
		}
		return obj, nil
	}); err != nil {
		return err
	}
	namespaces := factory.Core().V1().Namespaces().Informer()
	policies := factory.Networking().V1().NetworkPolicies().Informer()
	factory.Start(stop)
	if err := kr.CacheSyncOrTimeout(factory, stop); err != nil {
		return fmt.Errorf("reading pods, namespaces and NetworkPolicies from the API server: %w", err)
	}

	iptables, ipsets, err := netpol.NewIPTablesHandlers(config)
	if err != nil {
		return fmt.Errorf("iptables or ipset is not usable (install them: apt-get install iptables ipset): %w", err)
	}
	var ipsetMutex sync.Mutex
	npc, err := netpol.NewNetworkPolicyController(kr.Client, config, pods, policies, namespaces, &ipsetMutex,
		iptables, ipsets)
	if err != nil {
		return err
	}
	if _, err := pods.AddEventHandler(npc.PodEventHandler); err != nil {
		return err
	}
	if _, err := namespaces.AddEventHandler(npc.NamespaceEventHandler); err != nil {
		return err
	}
	if _, err := policies.AddEventHandler(npc.NetworkPolicyEventHandler); err != nil {
		return err
	}

	// The controller reports each sync on this channel; nothing watches its health here.
	heartbeats := make(chan *healthcheck.ControllerHeartbeat, 10)
	go func() {
		for range heartbeats {
		}
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go npc.Run(heartbeats, stop, &wg)
	klog.Infof("enforcing NetworkPolicy for every pod, as node %s (%s)", node.Name, nodeIP)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	<-signals
	close(stop)
	wg.Wait()
	return nil
}

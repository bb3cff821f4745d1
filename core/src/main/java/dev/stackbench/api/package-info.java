/**
 * The BenchmarkRun resource (stackbench.dev/v1alpha1) shared by the operator and the local runner: spec and status
 * POJOs from which the CRD in crds/ is generated, their defaults ({@link dev.stackbench.api.BenchmarkRunDefaults}),
 * the CEL rules and bounds ({@link dev.stackbench.api.SpecRules}), the YAML reader
 * ({@link dev.stackbench.api.BenchmarkRuns}), forward-only phases and Kubernetes-style conditions.
 */
package dev.stackbench.api;

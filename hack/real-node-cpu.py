#!/usr/bin/env python3
"""Benchmark helper (not a test): where the CPU of the real-node test cluster goes while runs start and end.

    hack/real-node-cpu.py sample OUT.csv SECONDS
        Once a second for at most SECONDS, writes the CPU-seconds used so far by each real node's pods (the node's
        cpuacct cgroup, /sys/fs/cgroup/cpuacct/stackbench-NODE) and by every other process, grouped by name (the
        API server, etcd, the kubelets, the containerds, the JVMs of the test and of the operator outside the nodes...).
        Start it before the runs, stop it (Ctrl-C) after them; it only reads /proc and /sys.
    hack/real-node-cpu.py windows OUT.csv STATUS.json...
        For each run's status.json (its status.timeline, as operator/target/e2e/cluster-comparison/*/status.json
        hold them): the CPU-seconds each group used from Accepted to the target's pod Ready (the start), and from
        LoadFinished to PoolsReleased (the end), out of the machine's CPUs times the window.

The groups: cg:stackbench-NODE for each node's pods (target, backend: database and delay service, loadgen: the k6
runners, system: the operator, k6-operator and the chart's pods), then the processes outside the nodes by name.
A process that started and ended between two samples is missed; one that started inside a window counts from zero.
"""
import collections
import csv
import datetime
import glob
import json
import os
import sys
import time

NAMES = ["kube-apiserver", "etcd", "kube-controller", "kube-scheduler", "kubelet", "containerd-shim", "containerd",
         "kube-proxy", "coredns", "kube-router", "java", "k6", "postgres"]


def sample(out_path, seconds):
    hz = os.sysconf("SC_CLK_TCK")
    limit = time.time() + seconds
    with open(out_path, "w") as out:
        out.write("t,group,cpu_s\n")
        while time.time() < limit:
            began = time.time()
            for path in glob.glob("/sys/fs/cgroup/cpuacct/stackbench-*/cpuacct.usage"):
                try:
                    used = int(open(path).read()) / 1e9
                except OSError:
                    continue
                out.write(f"{began:.2f},cg:{path.split('/')[-2]},{used:.2f}\n")
            for stat in glob.glob("/proc/[0-9]*/stat"):
                pid = stat.split("/")[2]
                try:
                    text = open(stat).read()
                    cgroups = open(f"/proc/{pid}/cgroup").read()
                except OSError:
                    continue
                if "/stackbench-" in cgroups:
                    continue  # counted with its node's pods
                name = text[text.index("(") + 1:text.rindex(")")]
                fields = text[text.rindex(")") + 2:].split()
                used = (int(fields[11]) + int(fields[12])) / hz
                group = next((n for n in NAMES if name.startswith(n)), "other")
                out.write(f"{began:.2f},p:{group}:{pid},{used:.2f}\n")
            out.flush()
            time.sleep(max(0.0, 1.0 - (time.time() - began)))


def used_between(series, start, end):
    by_group = collections.Counter()
    for key, points in series.items():
        before = [cpu for t, cpu in points if t <= start]
        until = [cpu for t, cpu in points if t <= end]
        if not until:
            continue
        grown = until[-1] - (before[-1] if before else 0.0)
        if grown > 0:
            by_group[key.split(":")[1] if key.startswith("p:") else key] += grown
    return by_group


def windows(csv_path, status_paths):
    series = collections.defaultdict(list)
    with open(csv_path) as samples:
        for row in csv.DictReader(samples):
            series[row["group"]].append((float(row["t"]), float(row["cpu_s"])))
    cpus = os.cpu_count()
    for path in status_paths:
        status = json.load(open(path))
        at = {}
        for entry in status.get("timeline", []):
            at.setdefault(entry["what"], datetime.datetime.fromisoformat(entry["at"].replace("Z", "+00:00")).timestamp())
        name = os.path.basename(os.path.dirname(path)) or path
        for label, first, last in (("start", "Accepted", "target Ready"), ("end", "LoadFinished", "PoolsReleased")):
            if first not in at or last not in at:
                print(f"{name} {label}: no {first} or {last} in its timeline")
                continue
            used = used_between(series, at[first], at[last])
            seconds = at[last] - at[first]
            top = ", ".join(f"{group} {cpu:.1f}" for group, cpu in used.most_common(8))
            print(f"{name} {label} ({first} to {last}) {seconds:.1f} s: {sum(used.values()):.1f} of "
                  f"{cpus * seconds:.1f} CPU-s; {top}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "sample" and sys.argv[3].isdigit():
        try:
            sample(sys.argv[2], int(sys.argv[3]))
        except KeyboardInterrupt:
            pass
    elif len(sys.argv) >= 4 and sys.argv[1] == "windows":
        windows(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

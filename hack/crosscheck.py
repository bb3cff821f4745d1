#!/usr/bin/env python3
"""Checks a local run's client-side figures against the target's own server-side metrics.

  hack/crosscheck.py results/<invocation>/<NN-run>/ [...]

stackbench reports what k6 saw. The target counts and times every request it serves itself
(Micrometer's http.server.requests, scraped every second into prometheus-scrapes.txt). This script
takes the measured window from k6's request log (k6-requests.csv, scenario "measure", whole
seconds), interpolates the server's request count at the window's start and end, and compares:

  throughput  completed /api requests per second, client (status.summary.rps) vs server
  latency     p50 and p95, client (k6) vs the server bucket (5 ms..10 s) that holds the same
              quantile, over the scrapes that bracket the window

Throughput agrees when within 5 % (or 1 request/s). A client percentile agrees when it lies in the
server's bucket, allowing 5 % and 5 ms above it: k6 also times the network and its own overhead.
Far above it means requests waited before the server's timer started, in the connection or accept
queue of a saturated thread pool, which server-side metrics never show. Below it is a real
disagreement. Standard library only.
"""
import csv
import json
import math
import re
import sys
from datetime import datetime
from pathlib import Path

SAMPLE = re.compile(r'^(http_server_requests_seconds_(?:count|bucket))\{(.*)\} (\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def scrapes(path):
    """[(epoch seconds, {"count": n, "buckets": {le: n}})] summed over the /api/ URIs."""
    result = []
    current = None
    for line in path.read_text().splitlines():
        if line.startswith('# scraped at '):
            stamp = line[len('# scraped at '):].strip()
            at = datetime.fromisoformat(stamp.replace('Z', '+00:00')[:26] + '+00:00'
                                        if '.' in stamp else stamp.replace('Z', '+00:00'))
            current = {'count': 0.0, 'buckets': {}}
            result.append((at.timestamp(), current))
            continue
        match = SAMPLE.match(line)
        if not match or current is None:
            continue
        labels = dict(LABEL.findall(match.group(2)))
        if not labels.get('uri', '').startswith('/api/'):
            continue
        value = float(match.group(3))
        if match.group(1).endswith('_count'):
            current['count'] += value
        else:
            le = math.inf if labels['le'] == '+Inf' else float(labels['le'])
            current['buckets'][le] = current['buckets'].get(le, 0.0) + value
    return result


def measured_window(run_dir, seconds):
    first = None
    with open(run_dir / 'k6-requests.csv', newline='') as handle:
        for row in csv.DictReader(handle):
            if row['metric_name'] == 'http_req_duration' and row['scenario'] == 'measure':
                stamp = int(row['timestamp'])
                first = stamp if first is None else min(first, stamp)
    if first is None:
        sys.exit(f'{run_dir}: k6-requests.csv has no measured requests')
    return first, first + seconds


def count_at(series, at):
    """The server's cumulative count at time `at`, interpolated between the scrapes around it."""
    for (t0, s0), (t1, s1) in zip(series, series[1:]):
        if t0 <= at <= t1:
            return s0['count'] + (s1['count'] - s0['count']) * (at - t0) / (t1 - t0)
    sys.exit(f'no scrapes around {at}: the window lies outside the sampled time')


def bracket(series, start, end):
    before = [s for s in series if s[0] <= start]
    after = [s for s in series if s[0] >= end]
    if not before or not after:
        sys.exit('no scrapes bracket the measured window')
    return before[-1], after[0]


def quantile_bucket(buckets0, buckets1, q):
    """The server bucket (lower, upper] in ms that holds quantile q of the requests between two scrapes."""
    bounds = sorted(buckets1)
    counts = [buckets1[b] - buckets0.get(b, 0.0) for b in bounds]
    total = counts[-1]
    if total <= 0:
        return None
    lower = 0.0
    for bound, cumulative in zip(bounds, counts):
        if cumulative >= q * total:
            return lower * 1000, bound * 1000
        lower = bound
    return None


def describe(bucket, client):
    if bucket is None:
        return 'no requests'
    lower, upper = bucket
    upper_text = 'inf' if math.isinf(upper) else f'{upper:.0f}'
    where = f'({lower:.0f}, {upper_text}] ms'
    if client < lower * 0.95 - 5:
        return f'{where}: DISAGREES, the client saw less than the server measured'
    if client <= upper * 1.05 + 5:
        return f'{where}: agrees'
    return (f'{where}: client {client - upper:.0f}+ ms higher, time before a server thread took the request'
            ' (accept queue) or on the network')


def check(run_dir):
    status = json.loads((run_dir / 'status.json').read_text())
    summary = status['summary']
    seconds = summary['measuredSeconds']
    start, end = measured_window(run_dir, seconds)
    series = scrapes(run_dir / 'prometheus-scrapes.txt')
    served = count_at(series, end) - count_at(series, start)
    (_, first), (_, last) = bracket(series, start, end)
    latency = summary['latencyMs']
    name = run_dir.name
    print(f'{name}: measured window {seconds:.0f} s, {len(series)} target scrapes')
    server_rps = served / seconds
    rps_verdict = 'agrees' if abs(server_rps - summary['rps']) <= max(1.0, 0.05 * server_rps) else 'DISAGREES'
    print(f'  rps     client {summary["rps"]:.1f}, server {server_rps:.1f}: {rps_verdict}')
    for label, q in (('p50', 0.50), ('p95', 0.95)):
        bucket = quantile_bucket(first['buckets'], last['buckets'], q)
        print(f'  {label}     client {latency[label]:.1f} ms, server bucket {describe(bucket, latency[label])}')


def main(arguments):
    if not arguments:
        sys.exit(__doc__)
    for argument in arguments:
        run_dir = Path(argument)
        if not (run_dir / 'status.json').is_file():
            sys.exit(f'{run_dir}: not a run directory (no status.json): give results/<invocation>/<NN-run>/')
        check(run_dir)


if __name__ == '__main__':
    main(sys.argv[1:])

// A custom stackbench iteration: a k6 module whose default export runs once per iteration.
//   context.baseUrl   the target (in local mode 127.0.0.1, on a cluster its Service)
//   context.variant   the variant every answer must name
//   context.verify(response, expectedStatus, operation)
//                     checks status and variant, and counts the response in the results;
//                     call it (or context.record(response)) for every request you want measured
// Everything else (load model, warmup, thresholds, summary) comes from the BenchmarkRun.
import http from 'k6/http';

export default function (context) {
  const list = http.get(context.baseUrl + '/api/rows?count=20', { tags: { name: 'list' } });
  context.verify(list, 200, 'list');
  const price = http.get(context.baseUrl + '/api/upstream?delayMs=50', { tags: { name: 'price' } });
  context.verify(price, 200, 'price');
}

import type { RequestEvent } from './handler.js';

/** Upper bounds of the latency histogram buckets, seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A value read when the metrics are scraped. */
export interface Gauge {
  /** Prometheus metric name, e.g. `bando_engine_calls_in_flight`. */
  name: string;
  help: string;
  /** `gauge`, or `counter` for a total kept elsewhere (e.g. worker replacements). */
  type: 'gauge' | 'counter';
  value(): number;
}

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/**
 * Request metrics of a server in the Prometheus text format (version 0.0.4), fed by the handler's `observe`:
 * `bando_http_requests_total{endpoint,status}`, `bando_http_request_duration_seconds{endpoint}` (histogram),
 * `bando_usage_rejections_total{reason}` (quota, rate, unavailable), plus the gauges given (worker-thread queue
 * depth, usage store reachability). Endpoints are the method and resource names and `other` for unknown paths, so
 * the number of series is bounded whatever clients send.
 */
export class ServerMetrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  private readonly rejections = new Map<string, number>();

  constructor(private readonly gauges: readonly Gauge[] = []) {}

  /** Counts one answered request (pass as the handler's `observe`). */
  observe(e: RequestEvent): void {
    const id = `${e.endpoint} ${e.status}`;
    this.requests.set(id, (this.requests.get(id) ?? 0) + 1);
    let h = this.latency.get(e.endpoint);
    if (!h) this.latency.set(e.endpoint, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    const seconds = e.ms / 1000;
    const i = BUCKETS.findIndex((b) => seconds <= b);
    if (i >= 0) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
    if (e.refused) this.rejections.set(e.refused, (this.rejections.get(e.refused) ?? 0) + 1);
  }

  /** The exposition text. */
  text(): string {
    const out: string[] = [];
    out.push(
      '# HELP bando_http_requests_total Requests answered, by endpoint and HTTP status.',
      '# TYPE bando_http_requests_total counter',
    );
    for (const [id, n] of this.requests) {
      const [endpoint, status] = id.split(' ');
      out.push(`bando_http_requests_total{endpoint="${label(endpoint!)}",status="${status}"} ${n}`);
    }
    out.push(
      '# HELP bando_http_request_duration_seconds Time from request to answer, by endpoint.',
      '# TYPE bando_http_request_duration_seconds histogram',
    );
    for (const [endpoint, h] of this.latency) {
      const e = label(endpoint);
      let cumulative = 0;
      BUCKETS.forEach((b, i) => {
        cumulative += h.counts[i]!;
        out.push(`bando_http_request_duration_seconds_bucket{endpoint="${e}",le="${b}"} ${cumulative}`);
      });
      out.push(`bando_http_request_duration_seconds_bucket{endpoint="${e}",le="+Inf"} ${h.count}`);
      out.push(
        `bando_http_request_duration_seconds_sum{endpoint="${e}"} ${h.sum}`,
        `bando_http_request_duration_seconds_count{endpoint="${e}"} ${h.count}`,
      );
    }
    out.push(
      '# HELP bando_usage_rejections_total Requests refused by the usage store: over quota, over rate, or store unavailable.',
      '# TYPE bando_usage_rejections_total counter',
    );
    for (const reason of ['quota', 'rate', 'unavailable'])
      out.push(`bando_usage_rejections_total{reason="${reason}"} ${this.rejections.get(reason) ?? 0}`);
    for (const g of this.gauges)
      out.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} ${g.type}`, `${g.name} ${g.value()}`);
    return out.join('\n') + '\n';
  }
}

/** A label value escaped as the text format asks (backslash, double quote, newline). */
function label(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

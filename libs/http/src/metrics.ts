import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type CollectFunction } from 'prom-client';
import type { Logger } from 'pino';

/**
 * Prometheus metrics of one service process: a registry of its own (never prom-client's global one,
 * so two apps in one test process do not collide), every series labelled with `service`, every name
 * prefixed `arbiter_`. The HTTP metrics are recorded by createServiceApp; app owners add domain
 * metrics through counter(), histogram() and gauge() (names listed in docs/operations.md).
 */
export const METRIC_PREFIX = 'arbiter_';

/** Seconds; verdict checks take about a millisecond, bundle verification can take seconds. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The `route` label of a request that no route matched (404s, and answers given before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/** nginx's convention for "the client closed the connection before the answer was complete". */
const CLIENT_CLOSED = '499';

const NAME = /^[a-z_][a-z0-9_]*$/;
const LABEL = /^[a-z_][a-z0-9_]*$/;

export class MetricsError extends Error {
  constructor(
    readonly code: 'invalid_metric_name' | 'metric_conflict',
    message: string,
  ) {
    super(message);
    this.name = 'MetricsError';
  }
}

export interface MetricSpec<L extends string> {
  help: string;
  /** Keep label values bounded: outcomes, states, queue names; never ids, tenants or raw paths. */
  labelNames?: readonly L[];
}

export interface HistogramSpec<L extends string> extends MetricSpec<L> {
  buckets?: number[];
}

export interface GaugeSpec<L extends string> extends MetricSpec<L> {
  /** Called at every scrape: set the gauge from its source (e.g. queue depths read from Redis). */
  collect?: CollectFunction<Gauge<L>>;
}

type Kind = 'counter' | 'histogram' | 'gauge';

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly kinds = new Map<string, { kind: Kind; labels: string }>();
  private defaultsEnabled = false;

  /** `defaultMetrics`: process CPU, memory, event-loop lag, GC (prom-client's set), enabled at the first scrape. */
  constructor(
    readonly service: string,
    private readonly opts: { defaultMetrics?: boolean } = {},
  ) {
    this.registry.setDefaultLabels({ service });
  }

  /** A counter, created once: asking again with the same name and labels returns the same one. */
  counter<L extends string = never>(name: string, spec: MetricSpec<L>): Counter<L> {
    return this.getOrCreate(
      name,
      'counter',
      spec.labelNames,
      (full) => new Counter<L>({ name: full, help: spec.help, labelNames: spec.labelNames ?? [], registers: [this.registry] }),
    );
  }

  histogram<L extends string = never>(name: string, spec: HistogramSpec<L>): Histogram<L> {
    return this.getOrCreate(
      name,
      'histogram',
      spec.labelNames,
      (full) =>
        new Histogram<L>({
          name: full,
          help: spec.help,
          labelNames: spec.labelNames ?? [],
          buckets: spec.buckets,
          registers: [this.registry],
        }),
    );
  }

  gauge<L extends string = never>(name: string, spec: GaugeSpec<L>): Gauge<L> {
    return this.getOrCreate(
      name,
      'gauge',
      spec.labelNames,
      (full) =>
        new Gauge<L>({ name: full, help: spec.help, labelNames: spec.labelNames ?? [], collect: spec.collect, registers: [this.registry] }),
    );
  }

  /** The text exposition format (Prometheus 0.0.4). */
  async render(): Promise<string> {
    if (!this.defaultsEnabled && this.opts.defaultMetrics !== false) {
      // Lazily: tests build many apps and never scrape; each default set starts an event-loop monitor.
      this.defaultsEnabled = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private getOrCreate<M>(name: string, kind: Kind, labelNames: readonly string[] | undefined, make: (fullName: string) => M): M {
    const full = name.startsWith(METRIC_PREFIX) ? name : METRIC_PREFIX + name;
    if (!NAME.test(full)) throw new MetricsError('invalid_metric_name', `Metric name ${JSON.stringify(name)} must match ${NAME}`);
    const bad = (labelNames ?? []).find((l) => !LABEL.test(l) || l === 'service');
    if (bad !== undefined) throw new MetricsError('invalid_metric_name', `Label ${JSON.stringify(bad)} of ${full} is not allowed`);
    const labels = [...(labelNames ?? [])].sort().join(',');
    const known = this.kinds.get(full);
    if (known) {
      if (known.kind !== kind || known.labels !== labels) {
        throw new MetricsError('metric_conflict', `${full} is already a ${known.kind} with labels [${known.labels}]`);
      }
      return this.registry.getSingleMetric(full) as M;
    }
    const metric = make(full);
    this.kinds.set(full, { kind, labels });
    return metric;
  }
}

/**
 * Request counts and latency by method, route pattern and status (the raw URL would be unbounded).
 * `observe(req, res, route)` records one request when its answer is done; `route` gives the label
 * then (an express route is only known once matched).
 */
export function httpObserver(metrics: ServiceMetrics) {
  const requests = metrics.counter('http_requests_total', {
    help: 'HTTP requests answered, by method, matched route pattern and status',
    labelNames: ['method', 'route', 'status'],
  });
  const duration = metrics.histogram('http_request_duration_seconds', {
    help: 'Time from receiving a request to the end of its answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_DURATION_BUCKETS,
  });
  const inFlight = metrics.gauge('http_requests_in_flight', { help: 'Requests being processed now' });
  return (req: IncomingMessage, res: ServerResponse, route: () => string): void => {
    const started = process.hrtime.bigint();
    inFlight.inc();
    // 'close' follows 'finish' for every answer, and comes alone when the client left first.
    res.once('close', () => {
      inFlight.dec();
      const labels = { method: req.method ?? '', route: route(), status: res.writableFinished ? String(res.statusCode) : CLIENT_CLOSED };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
}

/**
 * The matched express pattern (`/v1/streams/:stream_id/facts`), with the mount path of a router;
 * a mounted middleware without a route (e.g. /docs assets) is `<mount>/*`.
 */
export function routeLabel(req: Request, res: Response): string {
  if (res.locals.unmatchedRoute) return UNMATCHED_ROUTE;
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && route.path !== undefined) return `${req.baseUrl ?? ''}${String(route.path)}`;
  if (req.baseUrl) return `${req.baseUrl}/*`;
  return UNMATCHED_ROUTE;
}

/** GET /metrics. */
export function metricsHandler(metrics: ServiceMetrics): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    metrics.render().then((text) => {
      res.setHeader('Content-Type', metrics.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(text);
    }, next);
  };
}

/**
 * The partition maintenance hooks of a service (docs/operations.md "Partitions"), shaped as libs/db's
 * MaintenanceHooks: partitions created and dropped counted, rows moved out of a DEFAULT partition counted and
 * logged at `warn` (they were written while no partition was made for them).
 */
export function partitionMetrics(
  metrics: ServiceMetrics,
  logger: Pick<Logger, 'warn'>,
): {
  created(table: string, partition: string): void;
  dropped(table: string, partition: string): void;
  moved(table: string, partition: string, rows: number): void;
  dropDeferred(table: string, retired: string): void;
} {
  const created = metrics.counter('partitions_created_total', { help: 'Partitions created ahead, by table', labelNames: ['table'] });
  const dropped = metrics.counter('partitions_dropped_total', { help: 'Past partitions dropped, by table', labelNames: ['table'] });
  const moved = metrics.counter('partition_default_rows_moved_total', {
    help: 'Rows found in a DEFAULT partition and moved into the partition created for them, by table',
    labelNames: ['table'],
  });
  const deferred = metrics.counter('partition_drops_deferred_total', {
    help: 'Retired tables (detached partitions) whose drop was left to the next run: a lock on them was not granted in time, by table',
    labelNames: ['table'],
  });
  return {
    created: (table) => created.inc({ table }),
    dropDeferred(table, retired) {
      deferred.inc({ table });
      logger.warn({ table, retired }, 'partition maintenance: a retired table was not dropped (a lock on it was not granted); next run');
    },
    dropped: (table) => dropped.inc({ table }),
    moved(table, partition, rows) {
      moved.inc({ table }, rows);
      logger.warn(
        { table, partition, rows },
        'partition maintenance: rows of the DEFAULT partition moved into the partition created for them',
      );
    },
  };
}

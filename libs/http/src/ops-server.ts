import express from 'express';
import type { Logger } from 'pino';
import { readinessHandler, type ReadinessCheck } from './health';
import { metricsHandler, ServiceMetrics } from './metrics';
import { listen, type RunningServer } from './server';

export interface OpsServerOptions {
  service: string;
  host: string;
  port: number;
  logger: Logger;
  metrics?: ServiceMetrics;
  readiness?: ReadinessCheck[];
  graceMs?: number;
}

/**
 * /livez, /readyz and /metrics for a process that serves no HTTP API of its own (the worker), so
 * orchestrators probe it and Prometheus scrapes it like the services. Nothing else is routed.
 */
export async function startOpsServer(opts: OpsServerOptions): Promise<RunningServer & { metrics: ServiceMetrics }> {
  const metrics = opts.metrics ?? new ServiceMetrics(opts.service);
  const app = express();
  app.disable('x-powered-by');
  app.get('/livez', (_req, res) => {
    res.json({ status: 'ok', service: opts.service });
  });
  app.get('/readyz', readinessHandler(opts.service, opts.readiness ?? []));
  app.get('/metrics', metricsHandler(metrics));
  app.use((_req, res) => {
    res.status(404).json({ status: 'not_found' });
  });
  const running = await listen(app, { host: opts.host, port: opts.port, logger: opts.logger, graceMs: opts.graceMs ?? 1_000 });
  return { ...running, metrics };
}

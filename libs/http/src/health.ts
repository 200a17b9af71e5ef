import type { Request, Response } from 'express';

export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects with a reason otherwise. */
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2000;

const DRAINING = 'arbiter:draining';

/** Marks an app as shutting down (listen()'s close does it first). */
export function markDraining(app: { set(name: string, value: unknown): unknown }): void {
  app.set(DRAINING, true);
}

export function isDraining(app: { get(name: string): unknown } | undefined): boolean {
  return app?.get(DRAINING) === true;
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * /readyz: 200 when every dependency answers, else 503 naming the failing ones. A draining process
 * (SIGTERM received, see server.ts) answers 503 `draining`, so a load balancer that asked just
 * before the listener closed takes it out of rotation.
 */
export function readinessHandler(service: string, checks: ReadinessCheck[]) {
  return async (req: Request, res: Response) => {
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          await withTimeout(c.check(), CHECK_TIMEOUT_MS);
          return [c.name, 'ok'] as const;
        } catch (err) {
          return [c.name, (err as Error).message || 'failed'] as const;
        }
      }),
    );
    const checked = Object.fromEntries(results);
    // Asked again after the checks, which may have waited for a dependency while shutdown began.
    if (isDraining(req.app)) {
      res.status(503).json({ status: 'draining', service, checks: checked });
      return;
    }
    const ready = results.every(([, r]) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', service, checks: checked });
  };
}

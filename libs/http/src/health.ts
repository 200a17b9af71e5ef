import type { Request, Response } from 'express';

export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects with a reason otherwise. */
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** /readyz: 200 when every dependency answers, else 503 naming the failing ones. */
export function readinessHandler(service: string, checks: ReadinessCheck[]) {
  return async (_req: Request, res: Response) => {
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
    const ready = results.every(([, r]) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', service, checks: Object.fromEntries(results) });
  };
}

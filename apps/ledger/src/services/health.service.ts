import type { Pool } from 'pg';
import type { Redis } from 'ioredis';
import type { Health } from '../models/ledger';
import type { LedgerKeys } from '../keys';

const CHECK_TIMEOUT_MS = 2000;

/** GET /health (docs/ledger-formats.md "Health check"): the ledger's own view of what it needs to seal, read and sign. */
export class HealthService {
  constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
    private readonly keys: LedgerKeys,
  ) {}

  async health(): Promise<{ body: Health; healthy: boolean }> {
    const checks = {
      database: () => this.pool.query('SELECT 1').then(() => undefined),
      redis: () => this.redis.ping().then(() => undefined),
      signing_key: () => this.keys.checkCurrent().then(() => undefined),
    };
    const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await outcome(check())] as const));
    const healthy = results.every(([, r]) => r === 'ok');
    const now = Date.now();
    return {
      healthy,
      body: {
        status: healthy ? 'ok' : 'degraded',
        service: 'ledger',
        time_ms: now,
        time_iso: new Date(now).toISOString(),
        checks: Object.fromEntries(results),
      },
    };
  }
}

async function outcome(p: Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      p,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS))),
    ]);
    return 'ok';
  } catch (err) {
    return (err as Error).message || 'failed';
  } finally {
    clearTimeout(timer);
  }
}

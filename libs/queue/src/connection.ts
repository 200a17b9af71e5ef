import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisConnectionOptions {
  /** true for BullMQ Workers and QueueEvents (blocking commands), false for producers. */
  forWorker: boolean;
  /** Receives connection errors (otherwise ioredis prints them to stderr). */
  logger?: Logger;
}

/**
 * An ioredis connection shaped for one side of BullMQ. The caller owns it and closes it
 * (closeRedisConnection) after the producers and workers using it are closed.
 *
 * Workers (`forWorker: true`): `maxRetriesPerRequest: null` and the offline queue on.
 * BullMQ 6 throws "maxRetriesPerRequest must be null" when a Worker or QueueEvents gets an
 * instance with any other value (ioredis defaults to 20): their blocking BZPOPMIN/XREAD
 * must wait across reconnects instead of failing after N retries, and the commands issued
 * meanwhile (lock renewals, moveToCompleted) must be queued, not dropped.
 *
 * Producers (`forWorker: false`): `enableOfflineQueue: false`. This IS what BullMQ
 * recommends for a Queue on a request path (docs.bullmq.io/patterns/failing-fast-when-redis-is-down):
 * while Redis is unreachable `add` rejects at once ("Stream isn't writeable...") instead of
 * hanging until reconnect, and the caller answers 503 (or leaves the row in the outbox).
 * It is wrong only for Workers/QueueEvents, hence two kinds of connection. Measured caveat:
 * BullMQ still waits for the first `ready` of a Queue's connection, so an `add` on a producer
 * whose Redis was never reachable waits; `Producer.enqueue` refuses early in that case.
 */
export function createRedisConnection(url: string, opts: RedisConnectionOptions): Redis {
  const options: RedisOptions = opts.forWorker ? { maxRetriesPerRequest: null } : { enableOfflineQueue: false };
  const connection = new Redis(url, options);
  if (opts.logger) {
    const log = opts.logger;
    connection.on('error', (err: Error) => log.warn({ err }, 'redis connection error'));
  }
  return connection;
}

/**
 * Closes a connection made by createRedisConnection: QUIT when connected (pending replies
 * arrive first), otherwise disconnect. A fail-fast connection rejects QUIT itself while not
 * ready ("Stream isn't writeable..."), which would leave its socket and reconnect timer alive.
 */
export async function closeRedisConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'ready') {
    try {
      await connection.quit();
      return;
    } catch {
      // Lost between the status check and QUIT: fall through to disconnect.
    }
  }
  connection.disconnect();
}

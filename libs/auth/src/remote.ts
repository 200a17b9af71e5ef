import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Authenticator, type AuthErrors } from './authenticate';
import { IntrospectionClient } from './introspection';
import { subscribeInvalidations } from './pubsub';
import { CachedKeyResolver } from './resolver';

export interface RemoteAuthOptions {
  registryUrl: string;
  internalToken: string;
  redisUrl: string;
  errors: AuthErrors;
  logger: Logger;
  cacheTtlMs?: number;
}

export interface RemoteAuth {
  authenticator: Authenticator;
  cache: CachedKeyResolver;
  close(): Promise<void>;
}

/**
 * Authentication for services other than the registry (verdict, ledger): X-API-Key resolved
 * through the registry's introspection endpoint, cached at most 30 s, dropped at once when the
 * registry announces a revocation on Redis.
 */
export async function createRemoteAuth(opts: RemoteAuthOptions): Promise<RemoteAuth> {
  const cache = new CachedKeyResolver(new IntrospectionClient(opts.registryUrl, opts.internalToken), { ttlMs: opts.cacheTtlMs });
  const subscriber = new Redis(opts.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  subscriber.on('error', (err) => opts.logger.debug({ err }, 'auth subscriber error'));
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    await subscriber.connect();
    unsubscribe = await subscribeInvalidations(subscriber, cache);
  } catch (err) {
    // Without Redis the cache lifetime alone bounds staleness; the subscriber keeps reconnecting.
    opts.logger.warn({ err }, 'auth invalidation channel unavailable; relying on cache expiry');
    subscriber.once('ready', () => {
      void subscribeInvalidations(subscriber, cache).then((u) => (unsubscribe = u));
    });
  }
  return {
    authenticator: new Authenticator({ resolver: cache, source: 'x-api-key', errors: opts.errors }),
    cache,
    async close() {
      await unsubscribe?.();
      subscriber.disconnect();
    },
  };
}

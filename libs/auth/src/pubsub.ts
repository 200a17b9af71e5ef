import type { Redis } from 'ioredis';
import { INVALIDATION_CHANNEL, parseInvalidation, type CachedKeyResolver, type InvalidationEvent } from './resolver';

/** Tells every service's cache to forget a key, a principal or a tenant at once. */
export async function publishInvalidation(redis: Redis, event: InvalidationEvent): Promise<void> {
  await redis.publish(INVALIDATION_CHANNEL, JSON.stringify(event));
}

/**
 * Subscribes a cache to invalidations. `subscriber` must be a dedicated connection (subscriber mode).
 * After a reconnect the whole cache is dropped, since messages may have been missed meanwhile.
 */
export async function subscribeInvalidations(subscriber: Redis, cache: CachedKeyResolver): Promise<() => Promise<void>> {
  const onMessage = (channel: string, message: string) => {
    if (channel !== INVALIDATION_CHANNEL) return;
    const event = parseInvalidation(message);
    if (event) cache.invalidate(event);
  };
  const onReady = () => cache.invalidate({ type: 'all' });
  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  await subscriber.subscribe(INVALIDATION_CHANNEL);
  return async () => {
    subscriber.off('message', onMessage);
    subscriber.off('ready', onReady);
    await subscriber.unsubscribe(INVALIDATION_CHANNEL).catch(() => undefined);
  };
}

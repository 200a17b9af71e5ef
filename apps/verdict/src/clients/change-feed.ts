import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { REGISTRY_CHANGED_CHANNEL, type RegistryChangeMessage } from '@arbiter/internal-api';

/**
 * Redis channel on which a verdict replica (or the CLI) announces that a tenant's signing key ring
 * changed, so every replica drops its cached signer at once (docs/verdicts.md "Signing keys").
 */
export const VERDICT_KEYS_CHANNEL = 'arbiter:verdict:keys';

export interface KeysChangedMessage {
  tenant_id: string;
  kid: string;
  mode: string;
}

export interface ChangeHandlers {
  registryChanged(message: RegistryChangeMessage): void;
  keysChanged(message: KeysChangedMessage): void;
  /** The subscription was (re)established: messages may have been missed meanwhile. */
  resubscribed(): void;
}

export interface ChangeFeed {
  close(): Promise<void>;
}

function parse<T extends { tenant_id: string }>(raw: string): T | null {
  try {
    const value = JSON.parse(raw) as T;
    return value && typeof value === 'object' && typeof value.tenant_id === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * One dedicated subscriber connection for both channels. ioredis re-subscribes after a reconnect;
 * each `ready` after the first tells the handlers to re-check what they cache.
 */
export async function subscribeChanges(redisUrl: string, handlers: ChangeHandlers, logger: Logger): Promise<ChangeFeed> {
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  subscriber.on('error', (err) => logger.debug({ err }, 'change feed subscriber error'));
  let connectedOnce = false;
  subscriber.on('ready', () => {
    if (connectedOnce) handlers.resubscribed();
    connectedOnce = true;
  });
  subscriber.on('message', (channel: string, raw: string) => {
    if (channel === REGISTRY_CHANGED_CHANNEL) {
      const message = parse<RegistryChangeMessage>(raw);
      if (message) handlers.registryChanged(message);
    } else if (channel === VERDICT_KEYS_CHANNEL) {
      const message = parse<KeysChangedMessage>(raw);
      if (message) handlers.keysChanged(message);
    }
  });
  try {
    await subscriber.connect();
    await subscriber.subscribe(REGISTRY_CHANGED_CHANNEL, VERDICT_KEYS_CHANNEL);
  } catch (err) {
    // Without Redis the state-hash poll and the signer cache lifetime bound staleness; ioredis keeps retrying.
    logger.warn({ err }, 'change feed unavailable; relying on polling');
    subscriber.once('ready', () => void subscriber.subscribe(REGISTRY_CHANGED_CHANNEL, VERDICT_KEYS_CHANNEL).catch(() => undefined));
  }
  return {
    async close() {
      subscriber.disconnect();
    },
  };
}

/** Announces a key ring change to every replica; best effort (the signer cache lifetime bounds a lost message). */
export async function publishKeysChanged(redis: Redis, message: KeysChangedMessage, logger: Logger): Promise<void> {
  try {
    await redis.publish(VERDICT_KEYS_CHANNEL, JSON.stringify(message));
  } catch (err) {
    logger.warn({ err, tenant_id: message.tenant_id }, 'could not announce the key rotation');
  }
}

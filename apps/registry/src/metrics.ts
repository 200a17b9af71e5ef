import { ServiceMetrics } from '@arbiter/http';
import type { Counter } from 'prom-client';

/** The registry's domain metrics (names in docs/operations.md section 5). */
export interface RegistryMetrics {
  service: ServiceMetrics;
  webhookDeliveries: Counter<'outcome'>;
  outboxRelayed: Counter;
  keyRotations: Counter<'mode'>;
}

export function createRegistryMetrics(): RegistryMetrics {
  const service = new ServiceMetrics('registry', { defaultMetrics: true });
  return {
    service,
    webhookDeliveries: service.counter('webhook_deliveries_total', {
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
    }),
    outboxRelayed: service.counter('outbox_relayed_total', { help: 'Outbox events fanned out to webhook deliveries' }),
    keyRotations: service.counter('signing_key_rotations_total', { help: 'Webhook signing key rotations', labelNames: ['mode'] }),
  };
}

import type { ArbiterJobCatalog, HandlerMap } from '@arbiter/queue';
import type { RegistryInternalClient } from '@arbiter/internal-api';
import { ping } from './ping';
import { deliverWebhook } from './webhook-deliver';

export interface JobDeps {
  registry: RegistryInternalClient;
}

/** One handler per catalog job; startWorkers checks the map against the catalog at start. */
export function createJobHandlers(deps: JobDeps): HandlerMap<ArbiterJobCatalog> {
  return {
    'system.v1.ping': ping,
    'webhook.v1.deliver': deliverWebhook(deps.registry),
  };
}

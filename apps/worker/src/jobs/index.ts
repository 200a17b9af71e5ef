import type { ArbiterJobCatalog, HandlerMap } from '@arbiter/queue';
import { ping } from './ping';

/** One handler per catalog job; startWorkers checks the map against the catalog at start. */
export const jobHandlers: HandlerMap<ArbiterJobCatalog> = {
  'system.v1.ping': ping,
};

import { QueueError } from './errors';
import type { AnyJobDefinition } from './job';

/** Jobs keyed by their versioned name. */
export type JobCatalog = { readonly [name: string]: AnyJobDefinition };

/**
 * Freezes a catalog after checking that every key is its job's own name, so a lookup by
 * the name stored in a BullMQ job (or an outbox row) finds exactly that definition.
 */
export function defineCatalog<const C extends JobCatalog>(jobs: C): C {
  for (const [key, job] of Object.entries(jobs)) {
    if (job.name !== key) {
      throw new QueueError('invalid_catalog', `catalog key ${JSON.stringify(key)} holds job ${JSON.stringify(job.name)}`);
    }
  }
  return Object.freeze({ ...jobs });
}

/** The catalog's job of that name; QueueError `unknown_job` when there is none. */
export function findJob<C extends JobCatalog>(catalog: C, name: string): C[keyof C] {
  if (!Object.hasOwn(catalog, name)) {
    throw new QueueError('unknown_job', `no job named ${JSON.stringify(name)} in the catalog`);
  }
  return catalog[name] as C[keyof C];
}

/** Queue names used by the catalog, each once, in catalog order. */
export function queuesOf(catalog: JobCatalog): string[] {
  return [...new Set(Object.values(catalog).map((job) => job.queue))];
}

import { ServiceMetrics } from '@arbiter/http';
import type { Counter, Histogram } from 'prom-client';

/** The ledger's domain metrics (names in docs/operations.md section 5). */
export interface LedgerMetrics {
  service: ServiceMetrics;
  seals: Counter<'caller' | 'result'>;
  sealBatchSize: Histogram;
  bundles: Counter;
  proofDuration: Histogram<'kind'>;
  keyRotations: Counter<'mode'>;
}

export function createLedgerMetrics(): LedgerMetrics {
  const service = new ServiceMetrics('ledger', { defaultMetrics: true });
  return {
    service,
    seals: service.counter('ledger_seals_total', {
      help: 'Seals answered, by caller (tenant: POST /streams/{id}/facts; service: POST /internal/v1/seals) and result (created, replayed for a client_ref retry, refused: a service seal the database refused alone)',
      labelNames: ['caller', 'result'],
    }),
    sealBatchSize: service.histogram('ledger_seal_batch_size', {
      help: 'Seals committed together in one statement (group commit)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    }),
    bundles: service.counter('ledger_bundles_total', { help: 'Proof bundles created' }),
    proofDuration: service.histogram('ledger_proof_duration_seconds', {
      help: 'Time to answer a checkpoint, inclusion or consistency proof (reads, hashing, signing), by kind',
      labelNames: ['kind'],
      buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
    }),
    keyRotations: service.counter('signing_key_rotations_total', { help: 'Ledger signing key rotations', labelNames: ['mode'] }),
  };
}

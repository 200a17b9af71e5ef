import { RegistryInternalClient } from '@arbiter/internal-api';
import type { Logger } from 'pino';
import type { Pool } from 'pg';
import type { VerdictConfig } from './config';
import type { ConsultationsService } from './services/consultations.service';
import type { SnapshotStore } from './services/snapshot-store.service';
import type { RuleVersionsService } from './services/rule-versions.service';
import { ApprovalRepository } from './repositories/approvals.repository';
import { ApprovalsService } from './services/approvals.service';
import { OneShotIndex } from './services/one-shot-index.service';
import { ApprovalOutboxRelay } from './services/outbox-relay.service';

/**
 * Wires verdict approvals: the service, and the outbox relay loop that runs in every verdict
 * process (started here, stopped before the pool closes).
 */
export function createApprovals(deps: {
  config: VerdictConfig;
  logger: Logger;
  pool: Pool;
  /** Consultations wherever they are (PostgreSQL or the archive). */
  consultations: Pick<ConsultationsService, 'find'>;
  snapshots: SnapshotStore;
  /** The rule versions an approval's triggers name (snapshot first, then the registry). */
  versions: RuleVersionsService;
  /** Called after a decision that wrote a seal_outbox row committed. */
  onSealed?: () => void;
}): { service: ApprovalsService; oneShots: OneShotIndex; relay: ApprovalOutboxRelay; stop(): Promise<void> } {
  const repo = new ApprovalRepository(deps.pool);
  const oneShots = new OneShotIndex(repo);
  const registry = new RegistryInternalClient({ baseUrl: deps.config.REGISTRY_URL, token: deps.config.INTERNAL_TOKEN });
  const relay = new ApprovalOutboxRelay(repo, registry, deps.logger);
  const service = new ApprovalsService({
    approvals: repo,
    consultations: deps.consultations,
    registry,
    snapshots: deps.snapshots,
    versions: deps.versions,
    logger: deps.logger,
    onEnqueued: () => {
      relay.kick();
      if (deps.config.LEDGER_SEALING) deps.onSealed?.();
    },
    validitySeconds: deps.config.APPROVAL_VALIDITY_SECONDS,
    grantTtlSeconds: deps.config.APPROVAL_GRANT_TTL_SECONDS,
    ttlSeconds: deps.config.APPROVAL_TTL_SECONDS,
    onDecided: (tenantId) => oneShots.invalidate(tenantId),
    sealing: deps.config.LEDGER_SEALING,
  });
  relay.start();
  return { service, oneShots, relay, stop: () => relay.stop() };
}

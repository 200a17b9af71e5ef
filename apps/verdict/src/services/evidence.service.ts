import type { AuthenticatedIdentity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { auditStreamId } from '@arbiter/audit-streams';
import { LedgerUnavailableError, type AuditInclusion, type LedgerKeySet } from '@arbiter/internal-api';
import type { ConsultationEvidence } from '../models/evidence';
import type { ConsultationsService } from './consultations.service';

/** Where the ledger's proof of one sealed entity comes from (LedgerInternalClient.inclusion). */
export interface InclusionSource {
  /** The fact sealed under client_ref in the stream with its inclusion proof; null while none is. */
  inclusion(streamId: string, clientRef: string): Promise<AuditInclusion | null>;
  /** The ledger's published key set (GET /.well-known/ledger-keys). */
  ledgerKeys(): Promise<LedgerKeySet>;
}

/** A gateway started without LEDGER_URL: every evidence request answers 503 ledger_unavailable. */
export const unconfiguredLedger: InclusionSource = {
  inclusion: () => Promise.reject(new LedgerUnavailableError('ledger_unavailable', 'LEDGER_URL is not set')),
  ledgerKeys: () => Promise.reject(new LedgerUnavailableError('ledger_unavailable', 'LEDGER_URL is not set')),
};

/**
 * The ledger's evidence of a consultation: the fact the worker sealed into the tenant's
 * consultations stream under the consultation's id, with its inclusion proof under a checkpoint
 * the ledger signs now, the fact itself and the ledger's published keys (so that a browser, which
 * reaches no ledger, checks what an evidence pack lets the CLI check). Access as for reading the
 * consultation itself.
 */
export class EvidenceService {
  constructor(
    private readonly consultations: ConsultationsService,
    private readonly ledger: InclusionSource,
  ) {}

  async consultation(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<ConsultationEvidence> {
    const record = await this.consultations.record(identity, tenantParam, id);
    const streamId = auditStreamId(record.tenant_id, 'consultations');
    let found: AuditInclusion | null;
    let keys: LedgerKeySet;
    try {
      [found, keys] = await Promise.all([this.ledger.inclusion(streamId, id), this.ledger.ledgerKeys()]);
    } catch (err) {
      if (err instanceof LedgerUnavailableError) {
        throw new AppError(503, 'ledger_unavailable', 'The ledger cannot be reached right now; retry', undefined, { 'Retry-After': '5' });
      }
      throw err;
    }
    if (!found) {
      throw new AppError(
        409,
        'evidence_pending',
        'The consultation is not sealed in the ledger yet (sealing is asynchronous); retry',
        { consultation_id: id },
        { 'Retry-After': '1' },
      );
    }
    const { fact, leaf_index, tree_size, inclusion_path, checkpoint } = found;
    return {
      consultation_id: id,
      ...(record.archived ? { archived: true } : {}),
      ledger: {
        stream_id: streamId,
        fact_id: fact.fact_id,
        fact_hash: fact.fact_hash,
        leaf_index,
        tree_size,
        inclusion_path,
        checkpoint,
        fact,
        keys: keys as ConsultationEvidence['ledger']['keys'],
      },
    };
  }
}

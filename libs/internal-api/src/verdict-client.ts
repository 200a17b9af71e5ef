// The client of the verdict gateway's internal API (/internal/v1, apps/verdict/openapi.internal.json):
// the worker's seal relay leases, completes and releases the gateway's seal_outbox rows through it,
// and the registry reads shadow rule disagreements (docs/verdicts.md "Shadow rules").
// Failures map as for every internal client (call.ts): no answer, 5xx, 401 and 429 are
// VerdictUnavailableError (a retry may succeed), any other 4xx VerdictRejectedError.
import type { Client } from 'openapi-fetch';
import { internalApi, mappedCall, type Answer, type CallErrors, type InternalClientOptions } from './call';
import { ArchiveCalls, type ArchivePaths } from './archive-calls';
import type { ArchiveSegmentRecord, PartitionTenantsAnswer, RecordSegmentAnswer } from './types';
import { VerdictRejectedError, VerdictUnavailableError } from './errors';
import type { components, paths } from './generated/verdict-internal';

type Schemas = components['schemas'];

/** GET /internal/v1/tenants/{tenant_id}/rules/{rule_id}/shadow of the verdict gateway. */
export type ShadowDisagreements = Schemas['ShadowDisagreements'];

/** What this client is made with (InternalClientOptions); `timeoutMs` defaults to 5 s. */
export type VerdictInternalClientOptions = InternalClientOptions;

const VERDICT_ERRORS: CallErrors = {
  unreachable: (message) => new VerdictUnavailableError('verdict_unreachable', message),
  unavailable: (message, status) => new VerdictUnavailableError('verdict_unavailable', message, status),
  rejected: (status, detail) => new VerdictRejectedError(status, detail),
};

export class VerdictInternalClient {
  /** Requests made so far. */
  requests = 0;
  private readonly api: Client<paths>;
  private readonly timeoutMs: number;
  private readonly archive: ArchiveCalls;

  constructor(opts: VerdictInternalClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 5_000;
    this.api = internalApi<paths>(opts);
    // The same routes and answers as the registry's; only the error bodies differ, which call.ts reads either way.
    this.archive = new ArchiveCalls(
      'verdict',
      this.api as unknown as Client<ArchivePaths>,
      this.timeoutMs,
      VERDICT_ERRORS,
      () => this.requests++,
    );
  }

  /** Leases up to `limit` seal_outbox rows (consultations, approval decisions) for `leaseMs`. */
  leaseSeals(limit: number, leaseMs: number): Promise<Schemas['SealLease']> {
    return this.call('POST /seal-outbox/lease', (signal) =>
      this.api.POST('/internal/v1/seal-outbox/lease', { body: { limit, lease_ms: leaseMs }, signal }),
    );
  }

  /** Deletes the rows the ledger acknowledged. */
  sealsDone(ids: string[], signal?: AbortSignal): Promise<Schemas['SealDoneAnswer']> {
    return this.call('POST /seal-outbox/done', (s) => this.api.POST('/internal/v1/seal-outbox/done', { body: { ids }, signal: s }), signal);
  }

  /** Hands rows of a lease back at once. */
  releaseSeals(ids: string[], leasedUntil: string): Promise<Schemas['SealReleaseAnswer']> {
    return this.call('POST /seal-outbox/release', (signal) =>
      this.api.POST('/internal/v1/seal-outbox/release', { body: { ids, leased_until: leasedUntil }, signal }),
    );
  }

  /** How often a shadow rule disagreed with the verdict, per rule version (zero when never). */
  shadowDisagreements(tenantId: string, ruleId: string): Promise<ShadowDisagreements> {
    return this.call('GET /tenants/{tenant_id}/rules/{rule_id}/shadow', (signal) =>
      this.api.GET('/internal/v1/tenants/{tenant_id}/rules/{rule_id}/shadow', {
        params: { path: { tenant_id: tenantId, rule_id: ruleId } },
        signal,
      }),
    );
  }

  /** An approval's status (the registry's escalation notifications); null when the tenant has no such approval. */
  async approvalStatus(tenantId: string, approvalId: string): Promise<Schemas['InternalApprovalStatus'] | null> {
    try {
      return await this.call('GET /tenants/{tenant_id}/approvals/{approval_id}/status', (signal) =>
        this.api.GET('/internal/v1/tenants/{tenant_id}/approvals/{approval_id}/status', {
          params: { path: { tenant_id: tenantId, approval_id: approvalId } },
          signal,
        }),
      );
    } catch (err) {
      if (err instanceof VerdictRejectedError && err.status === 404) return null;
      throw err;
    }
  }

  /** Creates the gateway's partitions ahead and answers its past partitions (docs/operations.md "Partitions"). */
  runPartitions(): Promise<Schemas['MaintenancePartitionsAnswer']> {
    return this.call('POST /maintenance/partitions', (signal) => this.api.POST('/internal/v1/maintenance/partitions', { signal }));
  }

  /** Drops a past partition of the gateway if its gate is open. */
  dropPartition(partition: string): Promise<Schemas['PartitionDropAnswer']> {
    return this.call('POST /maintenance/partitions/drop', (signal) =>
      this.api.POST('/internal/v1/maintenance/partitions/{partition}/drop', { params: { path: { partition } }, signal }),
    );
  }

  // --- archive segments (docs/operations.md "Archive"): archive-calls.ts, the same for both services ---------

  partitionTenants(partition: string): Promise<PartitionTenantsAnswer | null> {
    return this.archive.partitionTenants(partition);
  }

  partitionRows(partition: string, tenantId: string, signal?: AbortSignal): AsyncGenerator<string> {
    return this.archive.partitionRows(partition, tenantId, signal);
  }

  recordSegment(partition: string, segment: ArchiveSegmentRecord): Promise<RecordSegmentAnswer> {
    return this.archive.recordSegment(partition, segment);
  }

  private call<T>(what: string, request: (signal: AbortSignal) => Promise<Answer<T>>, signal?: AbortSignal): Promise<T> {
    this.requests++;
    return mappedCall('verdict', what, this.timeoutMs, VERDICT_ERRORS, request, signal);
  }
}

// The one client of the registry's internal API (docs/registry.md "Internal API"): verdict, the
// worker and libs/auth's introspection all call /internal/v1 through it. Requests are typed by the
// generated `paths` (openapi-fetch), so a path, parameter or body the document does not have fails
// to compile. Timeouts and the mapping of failures are call.ts's (shared with the ledger's client):
// - no answer (refused, reset, timed out, aborted) and 5xx, 401, 429: RegistryUnavailableError;
// - any other 4xx: RegistryRejectedError with the registry's `detail`;
// - reads (state, state hash, rule version, tenant by slug) answer null for 404 and 400 (an id the
//   registry cannot even parse does not exist either) and treat every other failure as unavailable.
import type { Client } from 'openapi-fetch';
import { internalApi, mappedCall, type Answer, type CallErrors, type InternalClientOptions } from './call';
import { ArchiveCalls } from './archive-calls';
import { RegistryRejectedError, RegistryUnavailableError } from './errors';
import type { paths } from './generated/registry-internal';
import type {
  ApprovalGrantBody,
  ArchiveSegmentRecord,
  PartitionTenantsAnswer,
  RecordSegmentAnswer,
  AttemptReport,
  ForeignEventBody,
  InternalRuleVersion,
  IntrospectionAnswer,
  MaintenancePartitionsAnswer,
  NotificationAttemptReport,
  Override,
  OverrideState,
  RegistryEvent,
  RelayAnswer,
  ReleaseAnswer,
  RetentionsInUse,
  PartitionDropAnswer,
  SealDoneAnswer,
  SealLease,
  SealReleaseAnswer,
  StateHash,
  TenantRef,
  TenantState,
} from './types';

export { INTERNAL_TOKEN_HEADER } from './call';

/** What this client is made with (InternalClientOptions); `timeoutMs` defaults to 5 s. */
export type RegistryInternalClientOptions = InternalClientOptions;

const REGISTRY_ERRORS: CallErrors = {
  unreachable: (message) => new RegistryUnavailableError('registry_unreachable', message),
  unavailable: (message, status) => new RegistryUnavailableError('registry_unavailable', message, status),
  rejected: (status, detail) => new RegistryRejectedError(status, detail),
};

export class RegistryInternalClient {
  /** Requests made so far (observability, and what tests watch). */
  requests = 0;
  private readonly api: Client<paths>;
  private readonly timeoutMs: number;
  private readonly archive: ArchiveCalls;

  constructor(opts: RegistryInternalClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 5_000;
    this.api = internalApi<paths>(opts);
    this.archive = new ArchiveCalls('registry', this.api, this.timeoutMs, REGISTRY_ERRORS, () => this.requests++);
  }

  // --- identity (libs/auth: verdict and ledger resolve API keys here) --------------------------

  /** What a key hash (sha256 hex of the key) resolves to. */
  introspect(keyHash: string): Promise<IntrospectionAnswer> {
    return this.call('POST /introspect', (signal) => this.api.POST('/internal/v1/introspect', { body: { key_hash: keyHash }, signal }));
  }

  /** A tenant by its slug; null when there is none. */
  tenantBySlug(slug: string): Promise<TenantRef | null> {
    return this.read('GET /tenants/by-slug', (signal) =>
      this.api.GET('/internal/v1/tenants/by-slug/{slug}', { params: { path: { slug } }, signal }),
    );
  }

  // --- state (verdict's snapshots) ------------------------------------------------------------

  /** A tenant's whole evaluable state; null for an unknown tenant. */
  state(tenantId: string): Promise<TenantState | null> {
    return this.read('GET /tenants/state', (signal) =>
      this.api.GET('/internal/v1/tenants/{tenant_id}/state', { params: { path: { tenant_id: tenantId } }, signal }),
    );
  }

  /** The cheap change check; null for an unknown tenant. */
  stateHash(tenantId: string): Promise<StateHash | null> {
    return this.read('GET /tenants/state-hash', (signal) =>
      this.api.GET('/internal/v1/tenants/{tenant_id}/state-hash', { params: { path: { tenant_id: tenantId } }, signal }),
    );
  }

  /** Any rule version, current or superseded; null when it does not exist in this tenant. */
  ruleVersion(id: string, tenantId: string): Promise<InternalRuleVersion | null> {
    return this.read('GET /rule-versions', (signal) =>
      this.api.GET('/internal/v1/rule-versions/{rule_version_id}', {
        params: { path: { rule_version_id: id }, query: { tenant_id: tenantId } },
        signal,
      }),
    );
  }

  // --- approvals (verdict) --------------------------------------------------------------------

  /** An approval_grant override over the triggering rules (docs/approvals.md). */
  createGrant(tenantId: string, grant: Omit<ApprovalGrantBody, 'override_type'>): Promise<Override> {
    return this.call('POST /tenants/overrides', (signal) =>
      this.api.POST('/internal/v1/tenants/{tenant_id}/overrides', {
        params: { path: { tenant_id: tenantId } },
        body: { override_type: 'approval_grant', ...grant },
        signal,
      }),
    );
  }

  /**
   * An earlier grant of this approval that is still in force and that `matches`, from the tenant state: a grant whose
   * answer was lost (timeout) is found again instead of being made twice.
   */
  async findGrant(
    tenantId: string,
    approvalId: string,
    matches: (o: OverrideState) => boolean = () => true,
  ): Promise<OverrideState | null> {
    const state = await this.state(tenantId);
    return state?.overrides.find((o) => o.approval_id === approvalId && matches(o)) ?? null;
  }

  /** Records a verdict event in the registry's feed and outbox; `created` is false when its idempotency_key was seen before. */
  async recordEvent(tenantId: string, event: Omit<ForeignEventBody, 'source'>): Promise<{ event: RegistryEvent; created: boolean }> {
    let status = 0;
    const recorded = await this.call('POST /tenants/events', async (signal) => {
      const answer = await this.api.POST('/internal/v1/tenants/{tenant_id}/events', {
        params: { path: { tenant_id: tenantId } },
        body: { source: 'verdict', ...event },
        signal,
      });
      status = answer.response.status;
      return answer;
    });
    return { event: recorded, created: status === 201 };
  }

  // --- webhook delivery (the worker, ADR 0005) ------------------------------------------------

  /** Fans the outbox out and leases up to `limit` due deliveries to this caller. */
  relay(limit: number): Promise<RelayAnswer> {
    return this.call('POST /outbox/relay', (signal) => this.api.POST('/internal/v1/outbox/relay', { body: { limit }, signal }));
  }

  /** Hands back deliveries (and approval notifications) that could not be enqueued. */
  release(deliveryIds: string[], notificationIds: string[] = []): Promise<ReleaseAnswer> {
    const body = notificationIds.length ? { delivery_ids: deliveryIds, notification_ids: notificationIds } : { delivery_ids: deliveryIds };
    return this.call('POST /outbox/release', (signal) => this.api.POST('/internal/v1/outbox/release', { body, signal }));
  }

  /** Runs one attempt of an approval notification (docs/approvals.md "Notifications"); a repeat is answered `skipped`. */
  notificationAttempt(notificationId: string, attempt: number, signal?: AbortSignal): Promise<NotificationAttemptReport> {
    return this.call(
      'POST /approval-notifications/attempts',
      (s) =>
        this.api.POST('/internal/v1/approval-notifications/{notification_id}/attempts', {
          params: { path: { notification_id: notificationId } },
          body: { attempt },
          signal: s,
        }),
      signal,
    );
  }

  /** Runs one attempt (at most once per delivery and attempt, whatever the number of callers). */
  attempt(deliveryId: string, attempt: number, signal?: AbortSignal): Promise<AttemptReport> {
    return this.call(
      'POST /webhook-deliveries/attempts',
      (s) =>
        this.api.POST('/internal/v1/webhook-deliveries/{delivery_id}/attempts', {
          params: { path: { delivery_id: deliveryId } },
          body: { attempt },
          signal: s,
        }),
      signal,
    );
  }

  // --- the seal outbox (the worker's seal relay, docs/operations.md "Seal relay") --------------

  /** Leases up to `limit` seal_outbox rows (rule versions, approval decisions) for `leaseMs`. */
  leaseSeals(limit: number, leaseMs: number): Promise<SealLease> {
    return this.call('POST /seal-outbox/lease', (signal) =>
      this.api.POST('/internal/v1/seal-outbox/lease', { body: { limit, lease_ms: leaseMs }, signal }),
    );
  }

  /** Deletes the rows the ledger acknowledged. */
  sealsDone(ids: string[], signal?: AbortSignal): Promise<SealDoneAnswer> {
    return this.call('POST /seal-outbox/done', (s) => this.api.POST('/internal/v1/seal-outbox/done', { body: { ids }, signal: s }), signal);
  }

  /** Hands rows of a lease back at once. */
  releaseSeals(ids: string[], leasedUntil: string): Promise<SealReleaseAnswer> {
    return this.call('POST /seal-outbox/release', (signal) =>
      this.api.POST('/internal/v1/seal-outbox/release', { body: { ids, leased_until: leasedUntil }, signal }),
    );
  }

  // --- partition maintenance (docs/operations.md "Partitions") ---------------------------------

  /** Creates the registry's partitions ahead and answers its past partitions. */
  runPartitions(): Promise<MaintenancePartitionsAnswer> {
    return this.call('POST /maintenance/partitions', (signal) => this.api.POST('/internal/v1/maintenance/partitions', { signal }));
  }

  /** Drops a past partition of the registry if its gate is open. */
  dropPartition(partition: string): Promise<PartitionDropAnswer> {
    return this.call('POST /maintenance/partitions/drop', (signal) =>
      this.api.POST('/internal/v1/maintenance/partitions/{partition}/drop', { params: { path: { partition } }, signal }),
    );
  }

  /** The retentions the tenants' settings name, per kind, in milliseconds (defaults included). */
  retentionsInUse(): Promise<RetentionsInUse> {
    return this.call('GET /maintenance/retentions', (signal) => this.api.GET('/internal/v1/maintenance/retentions', { signal }));
  }

  // --- the mapping ----------------------------------------------------------------------------

  /** A read: null for 404 and 400, RegistryUnavailableError for any other failure. */
  private async read<T>(what: string, request: (signal: AbortSignal) => Promise<Answer<T>>): Promise<T | null> {
    try {
      return await this.call(what, request);
    } catch (err) {
      if (!(err instanceof RegistryRejectedError)) throw err;
      if (err.status === 404 || err.status === 400) return null;
      throw new RegistryUnavailableError('registry_unavailable', `registry answered ${err.status} for ${what}`, err.status);
    }
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
    return mappedCall('registry', what, this.timeoutMs, REGISTRY_ERRORS, request, signal);
  }
}

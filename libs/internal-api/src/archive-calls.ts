// The archive calls of the verdict gateway's and the registry's internal APIs (docs/operations.md "Archive"): the same
// three routes on both services, made once here for both clients (client.ts, verdict-client.ts).
import type { Client } from 'openapi-fetch';
import { mappedCall, ndjsonCall, type CallErrors } from './call';
import type { paths } from './generated/registry-internal';
import type { ArchiveSegmentRecord, PartitionTenantsAnswer, RecordSegmentAnswer } from './types';

/** The archive routes (generated from the registry's document; the verdict gateway's are the same). */
export type ArchivePaths = Pick<
  paths,
  | '/internal/v1/maintenance/partitions/{partition}/tenants'
  | '/internal/v1/maintenance/partitions/{partition}/tenants/{tenant_id}/rows'
  | '/internal/v1/maintenance/partitions/{partition}/segments'
>;

export class ArchiveCalls {
  constructor(
    private readonly service: string,
    private readonly api: Client<ArchivePaths>,
    private readonly timeoutMs: number,
    private readonly errors: CallErrors,
    /** Counts each request on the owning client. */
    private readonly counted: () => void,
  ) {}

  /** A past partition's bounds and the tenants with rows in it; null when it is not a partition of an archived table. */
  async partitionTenants(partition: string): Promise<PartitionTenantsAnswer | null> {
    this.counted();
    try {
      return await mappedCall(this.service, 'GET /maintenance/partitions/tenants', this.timeoutMs, this.errors, (signal) =>
        this.api.GET('/internal/v1/maintenance/partitions/{partition}/tenants', { params: { path: { partition } }, signal }),
      );
    } catch (err) {
      // The service's rejection (its RejectedError: `<service>_rejected`) with 404: no such archived partition.
      const e = err as { status?: number; code?: string };
      if (e.status === 404 && e.code === `${this.service}_rejected`) return null;
      throw err;
    }
  }

  /** One tenant's rows of a past partition, one JSON text a line, ordered by id (read as they arrive). */
  partitionRows(partition: string, tenantId: string, signal?: AbortSignal): AsyncGenerator<string> {
    this.counted();
    return ndjsonCall(
      this.service,
      'GET /maintenance/partitions/tenants/rows',
      this.timeoutMs,
      this.errors,
      (s) =>
        this.api.GET('/internal/v1/maintenance/partitions/{partition}/tenants/{tenant_id}/rows', {
          params: { path: { partition, tenant_id: tenantId } },
          headers: { accept: 'application/x-ndjson' },
          parseAs: 'stream',
          signal: s,
        }),
      signal,
    );
  }

  /** Records an archive segment written, read back, verified and sealed (idempotent: a repeat answers the first). */
  recordSegment(partition: string, segment: ArchiveSegmentRecord): Promise<RecordSegmentAnswer> {
    this.counted();
    return mappedCall(this.service, 'POST /maintenance/partitions/segments', this.timeoutMs, this.errors, (signal) =>
      this.api.POST('/internal/v1/maintenance/partitions/{partition}/segments', { params: { path: { partition } }, body: segment, signal }),
    );
  }
}

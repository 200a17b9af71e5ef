import type { TenantId } from '@arbiter/auth';
import type { NewSealRow } from '@arbiter/db';
import { activeTraceparent } from '@arbiter/telemetry';
import type { Prisma } from '../generated/prisma/client';
import type { Db } from './db';

/**
 * The registry's seal outbox rows (docs/operations.md "Seal relay"), written in the transaction of
 * the rule version or approval decision they record, with the traceparent of the request. The worker's lease, done and release run on
 * libs/db's SealOutboxStore (the same for the verdict gateway's table).
 */
export class SealOutboxRepository {
  constructor(private readonly db: Db) {}

  async add(tenantId: TenantId, row: NewSealRow): Promise<void> {
    await this.db.sealOutbox.create({
      // The request's trace, so that the seal job can join it (docs/operations.md "Tracing").
      data: {
        tenant_id: tenantId,
        stream_id: row.stream_id,
        client_ref: row.client_ref,
        payload: row.payload as Prisma.InputJsonValue,
        traceparent: activeTraceparent(),
      },
    });
  }
}

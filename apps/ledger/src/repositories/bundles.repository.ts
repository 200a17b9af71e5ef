import type { TenantId, TenantOwned } from '@arbiter/auth';
import type { Bundle as BundleRow, PrismaClient } from '../generated/prisma/client';
import type { OwnedStream } from './ledger.repository';

export type { BundleRow };

/** Proof bundles through Prisma (not a hot path). Every query takes the tenant (a TenantId or an OwnedStream). */
export class BundlesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(
    data: TenantOwned<Omit<BundleRow, 'fact_count' | 'created_at_ms'> & { fact_count: number; created_at_ms: number }>,
  ): Promise<BundleRow> {
    return this.prisma.bundle.create({ data: { ...data, fact_count: BigInt(data.fact_count), created_at_ms: BigInt(data.created_at_ms) } });
  }

  find(tenantId: TenantId, bundleId: string): Promise<BundleRow | null> {
    return this.prisma.bundle.findFirst({ where: { bundle_id: bundleId, tenant_id: tenantId } });
  }

  /** A stream's bundles by (created_at_ms, bundle_id), without their manifests. */
  list(stream: OwnedStream, limit: number, after?: { created_at_ms: number; bundle_id: string }) {
    const position = after
      ? {
          OR: [
            { created_at_ms: { gt: BigInt(after.created_at_ms) } },
            { created_at_ms: BigInt(after.created_at_ms), bundle_id: { gt: after.bundle_id } },
          ],
        }
      : {};
    return this.prisma.bundle.findMany({
      where: { stream_id: stream.stream_id, tenant_id: stream.tenant_id, ...position },
      orderBy: [{ created_at_ms: 'asc' }, { bundle_id: 'asc' }],
      take: limit,
      omit: { facts_manifest: true, signature: true },
    });
  }
}

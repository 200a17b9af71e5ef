import type { Pool } from 'pg';
import { mintTenantId, type TenantId } from '@arbiter/auth';
import { itChecksTenantScoping } from '@arbiter/testing';
import type { PrismaClient } from '../generated/prisma/client';
import { BundlesRepository, type BundleRow } from './bundles.repository';
import { LedgerRepository, type AppendGroup, type StreamRow } from './ledger.repository';
import { appendedStreamAnyTenant, MerkleRepository } from './merkle.repository';

// Compiled by the tests below, never run: a tenant's query needs a TenantId, a stream's facts an
// OwnedStream (only findStream makes one); the seal queue's batch reads take StreamKeys, which carry a TenantId.
export async function typeLevel(
  pool: Pool,
  prisma: PrismaClient,
  plain: string,
  tenant: TenantId,
  row: StreamRow,
  bundle: BundleRow,
  group: AppendGroup,
): Promise<void> {
  const ledger = new LedgerRepository(pool);
  // @ts-expect-error a plain string is not a TenantId
  await ledger.findStream(plain, 'orders');
  // @ts-expect-error a plain string is not a TenantId
  await ledger.listStreams(plain, 10);
  // @ts-expect-error a plain string is not a TenantId
  await ledger.findFact(plain, 'fct-1');
  // @ts-expect-error a stream row read across tenants is not an OwnedStream
  await ledger.chainPage(row, 0, 10, 10);
  // @ts-expect-error a plain string is not a TenantId
  await ledger.appendStreams([{ ...group, tenantId: plain }], 0);
  // @ts-expect-error a plain string is not a TenantId
  await ledger.readHeads([{ tenantId: plain, streamId: 'orders' }]);
  // @ts-expect-error a plain string is not a TenantId
  await ledger.findByClientRef(plain, 'orders', 'ref-1');
  // @ts-expect-error a plain string is not a TenantId
  await new BundlesRepository(prisma).find(plain, 'bnd-1');
  // @ts-expect-error a plain string is not a TenantId
  await new BundlesRepository(prisma).create({ ...bundle, fact_count: 1, created_at_ms: 0 });

  // @ts-expect-error a stream row read across tenants is not a tree the caller may read
  await new MerkleRepository(pool).leafHashes(row, [{ start: 0, end: 1 }]);

  const owned = await ledger.findStream(tenant, 'orders');
  if (owned) await ledger.chainPage(owned, 0, 10, 10);
  if (owned) await new MerkleRepository(pool).leafHashes(owned, [{ start: 0, end: 1 }]);
  await new MerkleRepository(pool).nodes(appendedStreamAnyTenant({ tenantId: tenant, streamId: 'orders' }), 8, [{ start: 0, end: 1 }]);
  await ledger.readHeads([{ tenantId: tenant, streamId: 'orders' }]);
  await new BundlesRepository(prisma).find(mintTenantId(plain), 'bnd-1');
}

describe('tenant scoping of the ledger repositories', () => itChecksTenantScoping(__filename));

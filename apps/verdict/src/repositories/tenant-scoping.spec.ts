import type { Pool, PoolClient } from 'pg';
import { mintTenantId, type TenantId } from '@arbiter/auth';
import { itChecksTenantScoping } from '@arbiter/testing';
import type { PrismaClient } from '../generated/prisma/client';
import type { Approval } from '../models/approvals';
import { ConsultationRepository } from './consultations.repository';
import { ResolveSessionRepository, type ResolveSessionState } from './resolve-sessions.repository';
import { CookieSessionRepository, type CookieSessionRow } from './cookie-sessions.repository';
import { ApprovalRepository } from './approvals.repository';
import { WindowRepository } from './windows.repository';

// Compiled by the tests below, never run: a tenant's query needs a TenantId, a plain string does not
// compile; the cross-tenant methods (named ...AnyTenant) take none.
export async function typeLevel(
  pool: Pool,
  client: PoolClient,
  prisma: PrismaClient,
  plain: string,
  tenant: TenantId,
  approval: Approval,
  session: Omit<ResolveSessionState, 'completed_at' | 'consultation_id'>,
  cookie: CookieSessionRow,
): Promise<void> {
  const approvals = new ApprovalRepository(pool);
  // @ts-expect-error a plain string is not a TenantId
  await approvals.list(plain, {}, 10, { now: new Date(), ttlSeconds: 60 });
  // @ts-expect-error a plain string is not a TenantId
  await approvals.insert(client, plain, approval, 'sha256:x');
  // @ts-expect-error a plain string is not a TenantId
  await approvals.consumeOneShot(plain, 'apr-1', 'cns-1', new Date());
  // @ts-expect-error a plain string is not a TenantId
  await new ConsultationRepository(pool).find(plain, 'cns-1');
  // @ts-expect-error a plain string is not a TenantId
  await new ConsultationRepository(pool).shadowCounts(plain, 'rul-1');
  // @ts-expect-error a plain string is not a TenantId
  await new ResolveSessionRepository(prisma).find(plain, 'rsn-1');
  // @ts-expect-error a plain string is not a TenantId
  await new ResolveSessionRepository(prisma).create(session);
  // @ts-expect-error a plain string is not a TenantId
  await new CookieSessionRepository(pool).create(cookie);

  const windows = new WindowRepository(pool);
  // @ts-expect-error a plain string is not a TenantId
  await windows.take(plain, 'cns-1', [], []);
  // @ts-expect-error a plain string is not a TenantId
  await windows.peek(plain, []);
  // @ts-expect-error a plain string is not a TenantId
  await windows.priors(plain, []);
  // @ts-expect-error a plain string is not a TenantId
  await windows.giveBack(plain, 'cns-1');
  // @ts-expect-error a plain string is not a TenantId
  await windows.reportOutcome(plain, 'cns-1', false);
  // @ts-expect-error a plain string is not a TenantId
  await windows.findOutcome(plain, 'cns-1');

  await windows.take(tenant, 'cns-1', [], []);
  await windows.pruneAnyTenant(100);
  await approvals.list(tenant, {}, 10, { now: new Date(), ttlSeconds: 60 });
  await approvals.findAnyTenant('apr-1');
  await new ResolveSessionRepository(prisma).create({ ...session, tenant_id: tenant });
  await new CookieSessionRepository(pool).create({ ...cookie, tenant_id: mintTenantId(plain) });
}

describe('tenant scoping of the verdict repositories', () => itChecksTenantScoping(__filename));

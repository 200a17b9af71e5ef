import { mintTenantId, type TenantId } from '@arbiter/auth';
import { itChecksTenantScoping } from '@arbiter/testing';
import { ApprovalsRepository } from './approvals.repository';
import type { Db } from './db';
import { DeliveriesAnyTenantRepository, DeliveriesRepository } from './deliveries.repository';
import { EntriesRepository } from './entries.repository';
import { EventsRepository } from './events.repository';
import { IdentityRepository } from './identity.repository';
import { LinksRepository } from './links.repository';
import { OutboxRepository } from './outbox.repository';
import { OverridesRepository } from './overrides.repository';
import { ReferencesRepository } from './references.repository';
import { RulesRepository } from './rules.repository';
import { ScopesRepository } from './scopes.repository';
import { WebhooksRepository } from './webhooks.repository';

// Compiled by the tests below, never run: a tenant's query needs a TenantId, a plain string does not
// compile; the cross-tenant methods (named ...AnyTenant) take none.
export async function typeLevel(db: Db, plain: string, tenant: TenantId): Promise<void> {
  // @ts-expect-error a plain string is not a TenantId
  await new ApprovalsRepository(db).find(plain, 'scp-1', 'apr-1');
  // @ts-expect-error a plain string is not a TenantId
  await new DeliveriesRepository(db).list(plain, 'whs-1', undefined, 10);
  // @ts-expect-error a plain string is not a TenantId
  await new EntriesRepository(db).findDecision(plain, 'scp-1', 'dec-1');
  // @ts-expect-error a plain string is not a TenantId
  await new EventsRepository(db).lockHead(plain);
  // @ts-expect-error a plain string is not a TenantId
  await new IdentityRepository(db).listKeys(plain, 10);
  // @ts-expect-error a plain string is not a TenantId
  await new IdentityRepository(db).updateTenant(plain, {});
  // @ts-expect-error a plain string is not a TenantId
  await new LinksRepository(db).listLinks(plain, 'dec-1', undefined, null, 10);
  // @ts-expect-error a plain string is not a TenantId
  await new OutboxRepository(db).add(plain, []);
  // @ts-expect-error a plain string is not a TenantId
  await new OverridesRepository(db).effective(plain, new Date());
  // @ts-expect-error a plain string is not a TenantId
  await new ReferencesRepository(db).list(plain, {}, null, 10);
  // @ts-expect-error a plain string is not a TenantId
  await new RulesRepository(db).findVersion(plain, 'rv-1');
  // @ts-expect-error a plain string is not a TenantId
  await new ScopesRepository(db).find(plain, 'scp-1');
  // @ts-expect-error a plain string is not a TenantId
  await new WebhooksRepository(db).activeOf([plain]);

  await new ScopesRepository(db).find(tenant, 'scp-1');
  await new RulesRepository(db).findVersionAnyTenant('rv-1');
  await new DeliveriesAnyTenantRepository(db).findById('dlv-1', []);
  const row = await new IdentityRepository(db).findTenant(plain);
  if (row) await new IdentityRepository(db).listKeys(row.id, 10);
  await new ScopesRepository(db).find(mintTenantId(plain), 'scp-1');
}

describe('tenant scoping of the registry repositories', () => itChecksTenantScoping(__filename));

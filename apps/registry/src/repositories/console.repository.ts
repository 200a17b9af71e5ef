import { mintTenantId, type TenantId } from '@arbiter/auth';
import type { ConsoleLink, ConsoleSession } from '../generated/prisma/client';
import type { Db } from './db';

/** A row found by the hash of its secret: its tenant, read from the database, is a TenantId. */
export type Vouched<T extends { tenant_id: string }> = T & { tenant_id: TenantId };

function vouched<T extends { tenant_id: string }>(row: T | null): Vouched<T> | null {
  return row && { ...row, tenant_id: mintTenantId(row.tenant_id) };
}

/**
 * The console's sessions and one-time links (docs/identity.md "Console sign-in"). Writes and lists take a TenantId;
 * a secret presented by a browser (a cookie, a link, a forwarded credential) is looked up by its hash across tenants
 * (`...AnyTenant`): the secret names its tenant, as an API key's hash does.
 */
export class ConsoleRepository {
  constructor(private readonly db: Db) {}

  createLink(
    tenantId: TenantId,
    data: { id: string; principal_id: string; token_hash: string; created_by: string; created_at: Date; expires_at: Date },
  ) {
    return this.db.consoleLink.create({ data: { ...data, tenant_id: tenantId } });
  }

  async findLinkAnyTenant(tokenHash: string): Promise<Vouched<ConsoleLink> | null> {
    return vouched(await this.db.consoleLink.findUnique({ where: { token_hash: tokenHash } }));
  }

  /** Marks the link used if it still can be (unused, unexpired): true for exactly one caller. */
  async consumeLink(tenantId: TenantId, id: string, now: Date): Promise<boolean> {
    const { count } = await this.db.consoleLink.updateMany({
      where: { tenant_id: tenantId, id, used_at: null, expires_at: { gt: now } },
      data: { used_at: now },
    });
    return count === 1;
  }

  createSession(
    tenantId: TenantId,
    data: {
      id: string;
      principal_id: string;
      token_hash: string;
      credential_hash: string;
      method: string;
      created_at: Date;
      expires_at: Date;
    },
  ) {
    return this.db.consoleSession.create({ data: { ...data, tenant_id: tenantId } });
  }

  /** A session that is neither ended nor past its lifetime, by the hash of its cookie. */
  async findLiveSessionAnyTenant(tokenHash: string, now: Date): Promise<Vouched<ConsoleSession> | null> {
    return vouched(await this.db.consoleSession.findFirst({ where: { token_hash: tokenHash, ended_at: null, expires_at: { gt: now } } }));
  }

  /** The same, by the hash of the credential the forwarders present for it. */
  async findLiveSessionByCredentialAnyTenant(credentialHash: string, now: Date): Promise<Vouched<ConsoleSession> | null> {
    return vouched(
      await this.db.consoleSession.findFirst({ where: { credential_hash: credentialHash, ended_at: null, expires_at: { gt: now } } }),
    );
  }

  async endSession(tenantId: TenantId, id: string, now: Date): Promise<void> {
    await this.db.consoleSession.updateMany({ where: { tenant_id: tenantId, id, ended_at: null }, data: { ended_at: now } });
  }

  /** The principal bound to an OpenID Connect identity: at most one across the platform (a unique index). */
  async findPrincipalByOidcAnyTenant(issuer: string, subject: string) {
    return vouched(await this.db.principal.findFirst({ where: { oidc_issuer: issuer, oidc_subject: subject } }));
  }
}

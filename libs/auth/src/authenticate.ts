import type { IncomingHttpHeaders } from 'node:http';
import type { AppError } from '@arbiter/http';
import { hashApiKey } from './api-keys';
import { isCredentialFormat } from './console-credentials';
import { hasPermission, isPermission, type AuthenticatedIdentity, type Identity, type Permission } from './identity';
import type { KeyResolver } from './resolver';

/** Each service renders authentication failures in its own document's codes. */
export interface AuthErrors {
  missing(): AppError;
  invalid(): AppError;
  deactivated(): AppError;
  forbidden(permission: Permission): AppError;
  /** The key could not be checked (e.g. the registry is unreachable). */
  unavailable(): AppError;
}

/** Registry: `Authorization: Bearer <key>`; verdict and ledger: `X-API-Key: <key>` (docs/identity.md). */
export type CredentialSource = 'bearer' | 'x-api-key';

export function credentialFrom(headers: IncomingHttpHeaders, source: CredentialSource): string | undefined {
  if (source === 'x-api-key') {
    const v = headers['x-api-key'];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  }
  const auth = headers.authorization;
  if (typeof auth !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1] : undefined;
}

export interface AuthenticatorOptions {
  resolver: KeyResolver;
  source: CredentialSource;
  errors: AuthErrors;
}

/** One way to authenticate on every service: find the key, resolve it, check principal and permissions. */
export class Authenticator {
  constructor(private readonly opts: AuthenticatorOptions) {}

  async authenticate(headers: IncomingHttpHeaders, required: readonly string[] = []): Promise<AuthenticatedIdentity> {
    const { errors } = this.opts;
    const key = credentialFrom(headers, this.opts.source);
    if (!key) throw errors.missing();
    if (!isCredentialFormat(key)) throw errors.invalid();
    let identity: AuthenticatedIdentity | null;
    try {
      identity = await this.opts.resolver.resolve(hashApiKey(key));
    } catch {
      throw errors.unavailable();
    }
    if (!identity) throw errors.invalid();
    if (identity.expires_at && Date.parse(identity.expires_at) <= Date.now()) throw errors.invalid();
    if (!identity.principal.active) throw errors.deactivated();
    for (const p of required) {
      if (!isPermission(p) || !hasPermission(identity, p)) throw errors.forbidden(p as Permission);
    }
    return identity;
  }
}

/** Throws the service's 403 unless the identity holds the permission. */
export function requirePermission(identity: Identity, permission: Permission, errors: Pick<AuthErrors, 'forbidden'>): void {
  if (!hasPermission(identity, permission)) throw errors.forbidden(permission);
}

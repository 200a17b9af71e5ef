import type { TenantId } from '@arbiter/auth';
import { CanonicalizationError } from '@arbiter/canonical';
import { CryptoError, decryptSecretRotating, encryptSecret } from '@arbiter/crypto';
import { AppError } from '@arbiter/http';
import {
  commit,
  keyDigest,
  keyId,
  keyPathIsSensitive,
  newKey,
  newSubjectKeys,
  openValues,
  replaceSensitive,
  restoreSensitive,
  sealValues,
  subjectDigest,
  subjectOf,
  unwrapKey,
  unwrapSubjectKeys,
  wrapKey,
  wrapSubjectKeys,
  type SensitivePolicy,
  type SubjectKeys,
} from '@arbiter/sensitive';
import type { Fact } from '@arbiter/policy';
import type { SubjectKeysRepository } from '../repositories/subject-keys.repository';
import type { Logger } from 'pino';
import { ERASED, parseSealedValues, pathsOf, UNREADABLE, type SealedSessionFacts, type SealedValues } from '../domain/sealed-values';

/** A sensitive value as a record's row gives it back: its plain value, or why it cannot. */
type Opened = { value: unknown } | typeof ERASED | typeof UNREADABLE;

/** A request with its sensitive values committed, and what is kept of them beside the record. */
export interface Shielded {
  parameters: Record<string, unknown>;
  context: Record<string, Fact>;
  sealed: SealedValues;
  /** The subject's keys the values were committed under; null for a one-off key (no subject). */
  keys: SubjectKeys | null;
}

export interface SensitiveValuesDeps {
  keys: SubjectKeysRepository;
  kek: Buffer;
  previousKek: Buffer | null;
  /** Where an integrity failure (a row's values that do not open under a key that exists) is reported. */
  logger?: Logger;
}

/**
 * Sensitive fields at the gateway (docs/verdicts.md "Sensitive fields"): commits a request's sensitive values under
 * its subject's key before anything is hashed, stored or answered, seals the plain values beside the record, and
 * reveals them to readers while the subject's key lives. The subject's keys are read from the database on each use
 * (no cache an erasure would have to reach); the tenant secret, which never changes, is kept in memory.
 */
export class SensitiveValuesService {
  private readonly secrets = new Map<TenantId, Promise<Buffer>>();

  constructor(private readonly deps: SensitiveValuesDeps) {}

  /** The tenant's secret for subject digests and sensitive window keys. */
  tenantSecret(tenantId: TenantId): Promise<Buffer> {
    let secret = this.secrets.get(tenantId);
    if (!secret) {
      secret = this.deps.keys
        .tenantSecret(tenantId, () => wrapKey(newKey(), this.deps.kek, tenantId))
        .then((wrapped) => unwrapKey(wrapped, this.deps.kek, this.deps.previousKek, tenantId));
      secret.catch(() => this.secrets.delete(tenantId));
      this.secrets.set(tenantId, secret);
    }
    return secret;
  }

  /** The stored name of a subject. */
  async digest(tenantId: TenantId, subject: string): Promise<string> {
    return subjectDigest(await this.tenantSecret(tenantId), subject);
  }

  /**
   * The request with every sensitive value replaced by its commitment under the subject's keys (created on the
   * subject's first use), or null when it carries none. `rowId` binds the sealed values to their row.
   */
  async shield(
    tenantId: TenantId,
    policy: SensitivePolicy | null,
    parameters: Record<string, unknown>,
    context: Record<string, Fact>,
    rowId: string,
  ): Promise<Shielded | null> {
    if (!policy) return null;
    let replaced;
    try {
      // A first pass finds the values; a request without any makes no key and stores nothing beside its record.
      if (replaceSensitive(policy, parameters, context, (_, value) => value).found.size === 0) return null;
      const subject = subjectOf(policy, parameters, context);
      // Without a subject the values are committed under a one-off key, thrown away at once: they read back erased.
      const digest = subject === null ? null : await this.digest(tenantId, subject);
      const keys = digest === null ? newSubjectKeys() : await this.subjectKeys(tenantId, digest);
      replaced = { digest, keys, ...replaceSensitive(policy, parameters, context, (location, value) => commit(keys.mac, location, value)) };
    } catch (err) {
      if (err instanceof CanonicalizationError)
        throw new AppError(400, 'validation_failed', `The request cannot be canonicalised (RFC 8785): ${err.message}`);
      throw err;
    }
    const { digest, keys } = replaced;
    return {
      parameters: replaced.parameters,
      context: replaced.context,
      sealed: {
        subject: digest,
        paths: [...replaced.found.keys()],
        values: digest === null ? null : sealValues(keys, replaced.found, `${tenantId}:${rowId}`),
        ...(digest === null ? {} : { key: keyId(keys) }),
      },
      keys: digest === null ? null : keys,
    };
  }

  /**
   * The values of a record by location, each `erased` once its subject's key is gone (or was never kept), `unreadable`
   * when its ciphertext does not open under a key that exists or the row's `sealed_values` is malformed (an integrity
   * failure, logged); null when the record has none.
   */
  async reveal(tenantId: TenantId, rowId: string, sealed: SealedValues | null): Promise<Record<string, unknown> | null> {
    const values = await this.open(tenantId, rowId, sealed);
    if (!values) return null;
    return Object.fromEntries([...values].map(([path, v]) => [path, typeof v === 'string' ? v : v.value]));
  }

  /**
   * A stored request with its plain values back where they were committed (simulations, explanations); a value
   * erased or unreadable is left out, so a rule that reads it finds it absent (docs/verdicts.md "Sensitive fields").
   */
  async restore<F extends Fact>(
    tenantId: TenantId,
    rowId: string,
    sealed: SealedValues | null,
    parameters: Record<string, unknown>,
    context: Record<string, F>,
    /** Keys read so far by subject (a simulation reads each subject's key once). */
    memo?: Map<string, Promise<string | null>>,
  ): Promise<{ parameters: Record<string, unknown>; context: Record<string, F> }> {
    const values = await this.open(tenantId, rowId, sealed, memo);
    if (!values) return { parameters, context };
    return restoreSensitive(
      parameters,
      context,
      new Map([...values].map(([path, v]) => [path, typeof v === 'string' ? undefined : v.value])),
    );
  }

  /** The values by location, or null when the row has none. */
  private async open(
    tenantId: TenantId,
    rowId: string,
    stored: SealedValues | null,
    memo?: Map<string, Promise<string | null>>,
  ): Promise<Map<string, Opened> | null> {
    if (stored === null || stored === undefined) return null;
    const all = (paths: readonly string[], why: Opened) => new Map<string, Opened>(paths.map((p) => [p, why]));
    const sealed = parseSealedValues(stored);
    if (!sealed) {
      this.deps.logger?.error({ tenant_id: tenantId, row_id: rowId }, 'sealed_values of a row is malformed: its values are unreadable');
      return all(pathsOf(stored), UNREADABLE);
    }
    if (sealed.subject === null || sealed.values === null) return all(sealed.paths, ERASED);
    let read = memo?.get(sealed.subject);
    if (!read) {
      read = this.deps.keys.findKeys(tenantId, sealed.subject);
      memo?.set(sealed.subject, read);
    }
    const wrapped = await read;
    if (wrapped === null) return all(sealed.paths, ERASED);
    const keys = this.unwrap(tenantId, sealed.subject, wrapped);
    // A key made again for the subject after an erasure is another key: what the erased one sealed stays erased.
    if (sealed.key !== undefined && sealed.key !== keyId(keys)) return all(sealed.paths, ERASED);
    let values: Record<string, unknown>;
    try {
      values = openValues(keys, sealed.values, `${tenantId}:${rowId}`);
    } catch (err) {
      if (!(err instanceof CryptoError) && !(err instanceof SyntaxError)) throw err;
      // Sealed under this very key (or under a key of unknown id), yet it does not open: altered, not erased.
      this.deps.logger?.error(
        { tenant_id: tenantId, row_id: rowId, err: err.message },
        'sealed values do not open under their subject key: they are unreadable',
      );
      return all(sealed.paths, UNREADABLE);
    }
    return new Map(
      sealed.paths.map((p): [string, Opened] => [p, Object.prototype.hasOwnProperty.call(values, p) ? { value: values[p] } : ERASED]),
    );
  }

  /**
   * The engine's window-key hook (docs/verdicts.md "Sensitive fields"): a `limit` or `requires_prior` key path that
   * reads a sensitive value keys its window by a digest under the tenant secret, never by the value.
   */
  async windowKeyValue(
    tenantId: TenantId,
    policy: SensitivePolicy | null,
  ): Promise<((path: string, value: unknown) => unknown) | undefined> {
    if (!policy) return undefined;
    const secret = await this.tenantSecret(tenantId);
    return (path, value) => (keyPathIsSensitive(policy, path) ? keyDigest(secret, path, value) : value);
  }

  /**
   * A resolve session's sensitive Facts, encrypted and bound to the session: under the subject's key when the round
   * named a subject (an erasure then reaches them, backups included), else under KEY_ENCRYPTION_KEY (the session's
   * lifetime at most: nothing else could decrypt them in the next round).
   */
  sealSessionFacts(tenantId: TenantId, sessionId: string, shielded: Shielded, facts: Record<string, Fact>): SealedSessionFacts {
    const aad = `${tenantId}:${sessionId}`;
    const subject = shielded.sealed.subject;
    if (subject !== null && shielded.keys) return { subject, facts: encryptSecret(JSON.stringify(facts), shielded.keys.enc, aad) };
    return { subject: null, facts: encryptSecret(JSON.stringify(facts), this.deps.kek, aad) };
  }

  /** The Facts sealSessionFacts sealed; none once an erasure of their subject destroyed its key (or removed them). */
  async openSessionFacts(tenantId: TenantId, sessionId: string, sealed: SealedSessionFacts | null): Promise<Record<string, Fact>> {
    if (!sealed) return {};
    const aad = `${tenantId}:${sessionId}`;
    let plaintext: Buffer;
    if (sealed.subject === null) plaintext = decryptSecretRotating(sealed.facts, this.deps.kek, this.deps.previousKek, aad).plaintext;
    else {
      const wrapped = await this.deps.keys.findKeys(tenantId, sealed.subject);
      if (wrapped === null) return {};
      try {
        plaintext = decryptSecretRotating(sealed.facts, this.unwrap(tenantId, sealed.subject, wrapped).enc, null, aad).plaintext;
      } catch (err) {
        // A key made again for the subject after an erasure does not open what the erased one sealed.
        if (err instanceof CryptoError) return {};
        throw err;
      }
    }
    return JSON.parse(plaintext.toString('utf8')) as Record<string, Fact>;
  }

  private async subjectKeys(tenantId: TenantId, digest: string): Promise<SubjectKeys> {
    const wrapped = await this.deps.keys.keys(tenantId, digest, () =>
      wrapSubjectKeys(newSubjectKeys(), this.deps.kek, `${tenantId}:${digest}`),
    );
    return this.unwrap(tenantId, digest, wrapped);
  }

  private unwrap(tenantId: TenantId, digest: string, wrapped: string): SubjectKeys {
    return unwrapSubjectKeys(wrapped, this.deps.kek, this.deps.previousKek, `${tenantId}:${digest}`);
  }
}

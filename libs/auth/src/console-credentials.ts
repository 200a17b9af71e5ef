import { hash } from 'node:crypto';
import { isApiKeyFormat } from './api-keys';
import type { Identity } from './identity';

/**
 * The credential a console session acts with (docs/identity.md "Console sign-in", ADR 0029): `cs-` and 64 hex
 * digits, derived from the session's cookie value by a one-way function, so the registry's forwarders can present it
 * for a signed-in browser without storing it. Every service resolves it through the same introspection as an API key.
 */
const CONSOLE_CREDENTIAL_FORMAT = /^cs-[0-9a-f]{64}$/;

export function consoleCredentialFor(sessionToken: string): string {
  return `cs-${hash('sha256', `arbiter console credential\n${sessionToken}`, 'hex')}`;
}

export function isConsoleCredentialFormat(value: string): boolean {
  return CONSOLE_CREDENTIAL_FORMAT.test(value);
}

/** What the Authenticator accepts: an API key or a console session's credential. */
export function isCredentialFormat(value: string): boolean {
  return isApiKeyFormat(value) || isConsoleCredentialFormat(value);
}

/** Console sessions resolve to an identity whose key_id is the session's id (`ses-`). */
export const CONSOLE_SESSION_ID_PREFIX = 'ses-';

/** Whether the caller is a console session rather than an API key: it cannot mint what outlives it (ADR 0029). */
export function isConsoleSession(identity: Pick<Identity, 'key_id'>): boolean {
  return identity.key_id.startsWith(CONSOLE_SESSION_ID_PREFIX);
}

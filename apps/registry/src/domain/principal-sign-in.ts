/**
 * The sign-in fields of a principal (docs/identity.md "Console sign-in"): `oidc_issuer` and `oidc_subject`, both or
 * neither, and `console_permissions`, all for human principals only. Pure: the service checks what the caller holds.
 */
export interface SignInFields {
  oidc_issuer: string | null;
  oidc_subject: string | null;
  console_permissions: string[];
}

export interface SignInChange {
  oidc_issuer?: string | null;
  oidc_subject?: string | null;
  console_permissions?: string[];
}

/**
 * The fields after a change, or the reason the change is refused (a 422). The pair travels together in a request, so
 * a body can never leave a principal bound to an issuer without a subject, nor rebind half of it by accident.
 */
export function applySignInChange(kind: string, current: SignInFields, change: SignInChange): SignInFields | string {
  const sentIssuer = change.oidc_issuer !== undefined;
  if (sentIssuer !== (change.oidc_subject !== undefined)) return 'oidc_issuer and oidc_subject are sent together';
  if ((change.oidc_issuer === null) !== (change.oidc_subject === null)) return 'oidc_issuer and oidc_subject are both set or both null';
  const next: SignInFields = {
    oidc_issuer: sentIssuer ? (change.oidc_issuer ?? null) : current.oidc_issuer,
    oidc_subject: sentIssuer ? (change.oidc_subject ?? null) : current.oidc_subject,
    console_permissions: change.console_permissions ? [...new Set(change.console_permissions)] : current.console_permissions,
  };
  if (kind !== 'human' && (next.oidc_issuer !== null || next.console_permissions.length > 0)) {
    return 'oidc_issuer, oidc_subject and console_permissions are for human principals only';
  }
  if (next.oidc_issuer !== null && !isIssuerUrl(next.oidc_issuer)) return 'oidc_issuer must be an http or https URL';
  return next;
}

/** An issuer identifier is a URL with the http(s) scheme and a host (OpenID Connect Discovery 1.0, section 2). */
function isIssuerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.host !== '' && !url.search && !url.hash;
  } catch {
    return false;
  }
}

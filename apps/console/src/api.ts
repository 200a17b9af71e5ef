// The console's only way to the server (docs/console.md "How it talks to the server"): same-origin fetches to
// /console/api/..., JSON in and out, the session's CSRF token on every write, and every failure returned as a
// value (never thrown), so a page shows it instead of breaking.

/** An error as the page shows it, whichever service answered (registry `{detail}`, verdict/ledger `{code, message}`). */
export interface ApiError {
  /** HTTP status; 0 when the server could not be reached or did not answer JSON. */
  status: number;
  /** The service's error code when it gave one (`not_a_valid_decider`, `already_decided`...). */
  code: string | null;
  message: string;
  details?: unknown;
  /** The whole JSON answer, for the rare caller that reads more than the error (the sign-in hints). */
  body?: unknown;
}

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiError };

let csrfToken: string | null = null;

/** Set by session.ts when the session is read; sent as X-CSRF-Token on every method but GET and HEAD. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called with every 401 answer: the session ended (signed out elsewhere, expired, principal disabled). */
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/** The path of a registry endpoint through the console's forwarder: `registry('scopes')` → /console/api/registry/scopes. */
export function registryPath(rest: string): string {
  return `/console/api/registry/${rest.replace(/^\/+/, '')}`;
}

/** The path of a verdict endpoint through the forwarder: `verdictPath('ten-1/v1/approvals')`. */
export function verdictPath(rest: string): string {
  return `/console/api/verdict/${rest.replace(/^\/+/, '')}`;
}

/** A path segment, percent-encoded (ids come from answers and the address bar, never trusted as path syntax). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** A query string from the defined entries, `?a=1&b=2`, or '' when none. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Reads an error body of any of the three dialects into an ApiError. Pure. */
export function errorFrom(status: number, body: unknown): ApiError {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = typeof b.code === 'string' ? b.code : null;
  const message =
    typeof b.message === 'string'
      ? b.message
      : typeof b.detail === 'string'
        ? b.detail
        : status === 0
          ? 'The server could not be reached'
          : `HTTP ${status}`;
  return { status, code, message, ...(b.details !== undefined ? { details: b.details } : {}), body };
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
    });
  } catch (err) {
    return { ok: false, status: 0, error: errorFrom(0, { message: `The server could not be reached (${(err as Error).message})` }) };
  }
  let parsed: unknown = undefined;
  const text = await response.text().catch(() => '');
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (response.ok) return { ok: true, status: response.status, data: parsed as T };
  if (response.status === 401 && onUnauthorized) onUnauthorized();
  return { ok: false, status: response.status, error: errorFrom(response.status, parsed) };
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {});

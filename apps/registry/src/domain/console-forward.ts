/**
 * The verdict service's public API, and nothing else of it: `v1/<...>` and `<tenant>/v1/<...>` (every path of its
 * OpenAPI document has one of these shapes). Its `/metrics`, `/readyz`, `/livez`, `/docs` and `/openapi.json` are for
 * operators, not for a browser session; `/docs` serves under any path, so it is no tenant either.
 */
const VERDICT_PUBLIC_PATH = /^(?:[A-Za-z0-9_-]+\/)?v1\/[^/]/;
const VERDICT_OWN_PREFIXES = /^(internal|docs|metrics|readyz|livez)(\/|$)/i;

/**
 * Where a console forwarder sends a request (docs/identity.md "Console sign-in"): `/console/api/registry/<rest>` is
 * the registry's `/api/v1/<rest>`, `/console/api/verdict/<rest>` the verdict service's `/<rest>`, the query string
 * kept. A path that would leave those APIs (a `.` or `..` segment, plain or percent-encoded, a backslash, or the
 * internal API) is refused (400), and a verdict path outside its public API shapes is not found (404): the forwarder
 * is a door into the public APIs only.
 */
export function forwardTarget(
  service: 'registry' | 'verdict',
  originalUrl: string,
  bases: { registry: string; verdict: string | undefined },
): { url: string } | { status: 400 | 404 | 503; refused: string } {
  const prefix = `/console/api/${service}/`;
  if (!originalUrl.startsWith(prefix)) return { status: 400, refused: 'Not a console forwarder path' };
  const rest = originalUrl.slice(prefix.length);
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q);
  const segments = path.split('/');
  if (segments.some((s) => /^(\.|%2e){1,2}$/i.test(s)) || /%2f|%5c|\\/i.test(path)) {
    return { status: 400, refused: 'A forwarded path may not contain dot segments or encoded slashes' };
  }
  if (service === 'registry') return { url: `${bases.registry}/api/v1/${path}${query}` };
  if (!bases.verdict) return { status: 503, refused: 'The verdict service is not configured on this registry (VERDICT_URL)' };
  if (/^internal(\/|$)/i.test(path)) return { status: 400, refused: 'The internal API is not reachable from the console' };
  if (!VERDICT_PUBLIC_PATH.test(path) || VERDICT_OWN_PREFIXES.test(path)) {
    return { status: 404, refused: "Not a path of the verdict service's public API" };
  }
  return { url: `${bases.verdict.replace(/\/+$/, '')}/${path}${query}` };
}

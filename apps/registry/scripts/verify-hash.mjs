#!/usr/bin/env node
// Recomputes a registry hash from API output alone, with no dependency (docs/registry.md):
//   curl -s -H "Authorization: Bearer $KEY" $R/scopes/$SCOPE/resolve | node verify-hash.mjs
//   curl -s -H "X-Internal-Token: $T" $BASE/internal/v1/tenants/$TENANT/state | node verify-hash.mjs
// Prints the recomputed digest; exits 1 when it differs from the one in the document.
import { createHash } from 'node:crypto';

/**
 * RFC 8785 (JCS) for the JSON the registry returns: object keys sorted by UTF-16 code units (what
 * Array.prototype.sort does), no whitespace, and JSON.stringify's ES number and string forms,
 * which are the ones RFC 8785 prescribes.
 */
function jcs(value) {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const digest = (value) => `sha256:${createHash('sha256').update(jcs(value), 'utf8').digest('hex')}`;

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const body = JSON.parse(raw);

let claimed;
let input;
if (typeof body.normative_hash === 'string') {
  // GET /api/v1/scopes/{id}/resolve: the response without normative_hash.
  const { normative_hash, ...rest } = body;
  [claimed, input] = [normative_hash, rest];
} else if (typeof body.state_hash === 'string') {
  // GET /internal/v1/tenants/{id}/state: the evaluable content only.
  const { tenant_id, settings, scopes, rules, invariants, overrides, principals } = body;
  [claimed, input] = [body.state_hash, { tenant_id, settings, scopes, rules, invariants, overrides, principals }];
} else {
  process.stderr.write('expected a resolve response (normative_hash) or a tenant state (state_hash)\n');
  process.exit(2);
}

const recomputed = digest(input);
process.stdout.write(`${recomputed}\n`);
if (recomputed !== claimed) {
  process.stderr.write(`MISMATCH: the document says ${claimed}\n`);
  process.exit(1);
}

#!/usr/bin/env node
// Verifies an Arbiter signed verdict offline, the way an enforcement point would (docs/verdicts.md
// "Verifying a verdict offline"). Only node:crypto and fetch: no Arbiter code, no JOSE library.
//
//   node docs/examples/verify-verdict.mjs --jwks <url|file> --jws <compact JWS> [--request <file>] [--at <ISO time>]
//
// --jwks     the tenant key set: https://<verdict host>/v1/tenants/<slug>/jwks, or a saved copy of it
// --request  JSON of what the enforcement point is about to do, {action, resource, scope, parameters,
//            context?, tenant_id?}: every binding of the verdict is compared with it, and context_hash
//            is recomputed from it (RFC 8785 canonical JSON, SHA-256)
// --at       the instant to judge exp against (default: now)
//
// Prints the result as JSON; exits 0 only when the operation may go ahead (`acts: true`): the verdict is authentic,
// binds the request, has not expired, and is one the enforcement point acts on (`--accept`, default `allowed`);
// 1 otherwise: a blocked or expired verdict verifies, but nothing may run on it.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/** RFC 8785 (JCS): sorted keys (UTF-16 code units), ECMAScript number and string forms, no whitespace. */
export function jcs(value) {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not a JSON number');
    return JSON.stringify(value); // ECMAScript Number.prototype.toString, as RFC 8785 section 3.2.2.3 requires
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`).join(',')}}`;
}

const sha256 = (text) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
// Strict base64url (RFC 7515: no padding, no other characters): Buffer.from would skip what it cannot read, so that
// many strings would verify as one verdict.
const b64url = (s) => {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw new Error('not base64url');
  return Buffer.from(s, 'base64url');
};

/**
 * Checks a compact JWS verdict against a key set. Returns {valid, problems, kid, claims, expired}.
 * `expected` (optional) is the request the verdict must be about.
 */
export function verifyVerdict({ jwks, jws, expected, at = new Date() }) {
  const problems = [];
  const parts = typeof jws === 'string' ? jws.split('.') : [];
  if (parts.length !== 3) return { valid: false, problems: ['not a compact JWS'] };
  const [headerB64, payloadB64, signatureB64] = parts;
  if (!parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p) && p.length % 4 !== 1)) return { valid: false, problems: ['not base64url'] };
  const header = JSON.parse(b64url(headerB64).toString('utf8'));
  // 1. Only ES256, and the key named by kid (kid = <tenant_id>:<epoch>).
  if (header.alg !== 'ES256') return { valid: false, problems: [`alg ${header.alg} is not ES256`] };
  const jwk = (jwks.keys ?? []).find((k) => k.kid === header.kid);
  if (!jwk) return { valid: false, problems: [`no key ${header.kid} in the key set`] };
  // 2. ES256 = ECDSA P-256 with SHA-256 over "<header>.<payload>"; the signature is r||s (RFC 7518 section 3.4).
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
  const authentic = verify('sha256', Buffer.from(`${headerB64}.${payloadB64}`), { key, dsaEncoding: 'ieee-p1363' }, b64url(signatureB64));
  if (!authentic) return { valid: false, kid: header.kid, problems: ['signature does not verify'] };
  const claims = JSON.parse(b64url(payloadB64).toString('utf8'));
  // 3. The key must have been valid when the verdict was issued: after an emergency rotation, verdicts
  //    carrying an iat at or after the old key's not_after are refused.
  const issued = claims.iat * 1000;
  if (issued < Date.parse(jwk.not_before) - 1000) problems.push('issued before its key became valid');
  if (jwk.not_after && issued >= Date.parse(jwk.not_after)) problems.push(`issued after its key was retired (${jwk.not_after})`);
  //    A verdict lives 1 to 3600 s (verdict_ttl_seconds): a longer one is none the gateway signed, and would let whoever
  //    held a retired key backdate iat and act for years.
  if (!Number.isInteger(claims.iat) || !Number.isInteger(claims.exp) || claims.exp <= claims.iat || claims.exp - claims.iat > 3600)
    problems.push(`exp is not 1 to 3600 s after iat`);
  if (claims.tenant_id && !header.kid.startsWith(`${claims.tenant_id}:`)) problems.push('kid belongs to another tenant');
  // 4. The bindings: the verdict must be about exactly this request.
  if (expected) {
    for (const name of ['tenant_id', 'action', 'resource']) {
      if (expected[name] !== undefined && claims[name] !== expected[name])
        problems.push(`${name} is ${JSON.stringify(claims[name])}, expected ${JSON.stringify(expected[name])}`);
    }
    for (const name of ['scope', 'parameters']) {
      if (expected[name] !== undefined && jcs(claims[name]) !== jcs(expected[name])) problems.push(`${name} differs from the request`);
    }
    if (expected.context !== undefined || expected.parameters !== undefined) {
      const recomputed = sha256(
        jcs({
          action: expected.action,
          resource: expected.resource,
          scope: expected.scope ?? {},
          parameters: expected.parameters ?? {},
          context: expected.context ?? {},
        }),
      );
      if (recomputed !== claims.context_hash)
        problems.push(`context_hash ${claims.context_hash} does not match the request (${recomputed})`);
    }
  }
  // 5. exp ends the right to act on the verdict; the signature stays evidence forever.
  const expired = at.getTime() >= claims.exp * 1000;
  return { valid: problems.length === 0, kid: header.kid, verdict: claims.verdict, consultation_id: claims.jti, expired, problems, claims };
}

async function load(source) {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`${source}: HTTP ${res.status}`);
    return res.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

async function main(argv) {
  const arg = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const jwksSource = arg('jwks');
  const jws = arg('jws');
  if (!jwksSource || !jws) {
    process.stderr.write(
      'usage: verify-verdict.mjs --jwks <url|file> --jws <compact JWS> [--request <file>] [--at <ISO time>] [--accept allowed,observe]\n',
    );
    return 2;
  }
  const expected = arg('request') ? await load(arg('request')) : undefined;
  const at = arg('at') ? new Date(arg('at')) : new Date();
  // The verdicts the enforcement point acts on: `allowed` only unless told (`observe` too, for one that runs observed operations).
  const accept = (arg('accept') ?? 'allowed').split(',');
  const result = verifyVerdict({ jwks: await load(jwksSource), jws, expected, at });
  const acts = result.valid && !result.expired && accept.includes(result.verdict);
  process.stdout.write(`${JSON.stringify({ ...result, acts }, null, 2)}\n`);
  return acts ? 0 : 1;
}

// Run as a program (also through a symbolic link, whose path is not the module's own), not when imported.
const invokedAs = () => {
  try {
    return pathToFileURL(realpathSync(process.argv[1] ?? '')).href;
  } catch {
    return undefined;
  }
};
if (import.meta.url === invokedAs()) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err) => {
      process.stderr.write(`verify-verdict: ${err.message}\n`);
      process.exitCode = 2;
    },
  );
}

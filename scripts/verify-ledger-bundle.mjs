#!/usr/bin/env node
// Verifies an Arbiter ledger proof bundle and the facts it covers from API output alone, with
// node:crypto and nothing of the project (docs/ledger-formats.md states every byte checked here).
//
//   node scripts/verify-ledger-bundle.mjs --bundle bundle.json --trust trust.json --facts facts.json [--facts page2.json ...]
//   node scripts/verify-ledger-bundle.mjs --url http://127.0.0.1:3003 --api-key ak-... --bundle-id bnd-... --trust trust.json
//
// --bundle: GET /bundles/{bundle_id} (or the POST /streams/{stream_id}/bundles answer)
// --trust:  the ledger keys you hold: a trust file (`arbiter trust export`; after a ledger rotation
//           `arbiter trust extend`), its `ledger_keys` (docs/evidence.md "Trusted keys"); a bundle of another
//           tenant than the file's is invalid (the ledger's keys sign every tenant's bundles)
// --keys:   or a ledger key set you obtained yourself (GET /.well-known/ledger-keys)
// --facts:  GET /streams/{stream_id}/facts pages ({facts: [...]}) or arrays of facts, in chain order;
//           list entries (fact_id, sealed_at_ms, sealed_at_iso, actor, sealed_by, custom_payload) suffice, full
//           facts (GET /facts/{id}) are checked field by field too.
// --url mode fetches those three itself; without --trust or --keys the keys then come from the ledger
// whose bundle is checked, and the report says `pinned: false` and exits 3 when nothing else failed.
// Prints a JSON report; exit 0 valid, 1 invalid, 2 unusable input, 3 valid but unpinned.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const GENESIS_PREV_HASH = `sha256:${'0'.repeat(64)}`;
const BUNDLE_VERSION = 1;
const BUNDLE_FIELDS = [
  'bundle_id',
  'stream_id',
  'tenant_id',
  'bundle_version',
  'head_fact_id',
  'head_hash',
  'facts_manifest',
  'created_at_ms',
  'created_at_iso',
  'signature_alg',
  'key_id',
];

// --- Reading JSON exactly ------------------------------------------------------------------------
// JSON.parse keeps the last of repeated member names and rounds a number to the nearest double, so a
// file could show one value and be verified with another. Both are refused here, on the raw text.

const JSON_TOKEN = /\s*("(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|[{}[\]:,]|true|false|null)/y;

/** A JSON number's decimal value in one spelling: `[-]<digits, no leading or trailing zeros>e<exponent>`, or `0`. */
function decimal(literal) {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  const digits = (whole + fraction).replace(/^0+/, '');
  const exp = Number(exponent) + whole.length - (whole + fraction).length + digits.length; // value = 0.<digits> x 10^exp
  const kept = digits.replace(/0+$/, '');
  return kept ? `${sign}${kept}e${exp}` : '0';
}

/** Whether a JSON number, read into a double, is still the number written: the double written back is the same decimal. */
const exactNumber = (literal) => Number.isFinite(Number(literal)) && decimal(literal) === decimal(String(Number(literal)));

/** JSON.parse, refusing a member name repeated in one object and a number no double holds exactly. */
function parseExactJson(text, what) {
  const value = JSON.parse(text);
  const objects = []; // per open container: a Set of names (object) or null (array)
  let expectName = false;
  JSON_TOKEN.lastIndex = 0;
  for (let m; (m = JSON_TOKEN.exec(text));) {
    const t = m[1];
    const open = objects[objects.length - 1];
    if (t === '{' || t === '[') {
      objects.push(t === '{' ? new Set() : null);
      expectName = t === '{';
    } else if (t === '}' || t === ']') objects.pop();
    else if (t === ',') expectName = open != null;
    else if (t[0] === '"' && expectName) {
      const name = JSON.parse(t);
      if (open.has(name)) throw new Error(`${what}: the member name ${t} is repeated in one object`);
      open.add(name);
      expectName = false;
    } else if (t[0] === '-' || (t[0] >= '0' && t[0] <= '9')) {
      if (!exactNumber(t)) throw new Error(`${what}: the number ${t} cannot be read exactly (a double reads it as another number)`);
    }
  }
  return value;
}

// --- RFC 8785 (JCS) ------------------------------------------------------------------------------
// Enough of RFC 8785 for any JSON value parsed by JSON.parse:
// - literals and strings serialise as ECMAScript JSON.stringify does (section 3.2.2.2), after
//   refusing lone surrogates, which have no UTF-8 form;
// - numbers serialise as ECMAScript Number-to-String, which is what JSON.stringify emits for a
//   finite number (section 3.2.2.3; -0 becomes 0);
// - object members are sorted by their names' UTF-16 code units (section 3.2.3), which is what
//   Array.prototype.sort does without a comparator;
// - no whitespace anywhere.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function canonicalize(value) {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${value} has no JSON form`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw new Error('string with a lone surrogate');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(',')}]`;
  if (typeof value === 'object') {
    const names = Object.keys(value).sort();
    return `{${names.map((name) => `${canonicalize(name)}:${canonicalize(value[name])}`).join(',')}}`;
  }
  throw new Error(`a ${typeof value} has no JSON form`);
}

export const sha256Digest = (value) => `sha256:${createHash('sha256').update(canonicalize(value), 'utf8').digest('hex')}`;

// --- verification --------------------------------------------------------------------------------

/**
 * fact_hash: sha256 over the canonical JSON of exactly these seven members, and sealed_by when the fact
 * has one: a fact sealed before the ledger recorded its sealer shows sealed_by null (or, in output saved
 * before then, no sealed_by) and hashes without it (docs/ledger-formats.md).
 */
export function factHash(fact, bundle, prevHash) {
  const sealedBy = fact.sealed_by ?? null;
  return sha256Digest({
    fact_id: fact.fact_id,
    stream_id: bundle.stream_id,
    tenant_id: bundle.tenant_id,
    actor: fact.actor,
    sealed_at_ms: fact.sealed_at_ms,
    ...(sealedBy === null ? {} : { sealed_by: sealedBy }),
    custom_payload: fact.custom_payload,
    prev_hash: prevHash,
  });
}

/** The bundle minus `signature`, canonical: the exact bytes the Ed25519 signature covers. */
export function bundleSigningInput(bundle) {
  const unsigned = {};
  for (const name of BUNDLE_FIELDS) unsigned[name] = bundle[name];
  return canonicalize(unsigned);
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function verifyBundle({ bundle, keys, facts, tenantId }) {
  const errors = [];
  const report = {
    valid: false,
    bundle_id: bundle?.bundle_id,
    stream_id: bundle?.stream_id,
    tenant_id: bundle?.tenant_id,
    key_id: bundle?.key_id,
    signature_valid: false,
    facts_verified: 0,
    facts_in_manifest: 0,
    errors,
  };
  const fail = (message) => {
    errors.push(message);
    return report;
  };

  // 1. Shape: every signed field present, no unknown ones, version and algorithm known.
  if (!bundle || typeof bundle !== 'object') return fail('bundle is not an object');
  const known = new Set([...BUNDLE_FIELDS, 'signature']);
  for (const name of [...BUNDLE_FIELDS, 'signature']) if (!(name in bundle)) return fail(`bundle has no ${name}`);
  for (const name of Object.keys(bundle))
    if (!known.has(name)) return fail(`bundle has an unknown field ${name}: it would not be covered by the signature`);
  if (bundle.bundle_version !== BUNDLE_VERSION) return fail(`bundle_version ${bundle.bundle_version} is not ${BUNDLE_VERSION}`);
  if (bundle.signature_alg !== 'ed25519') return fail(`signature_alg ${bundle.signature_alg} is not ed25519`);
  if (!Array.isArray(bundle.facts_manifest) || bundle.facts_manifest.length === 0) return fail('facts_manifest is not a non-empty array');
  if (!Number.isSafeInteger(bundle.created_at_ms) || bundle.created_at_ms < 0) return fail('created_at_ms is not a count of milliseconds');
  if (new Date(bundle.created_at_ms).toISOString() !== bundle.created_at_iso)
    return fail('created_at_iso is not created_at_ms in ISO 8601');
  report.facts_in_manifest = bundle.facts_manifest.length;
  // A trust file is one tenant's; the ledger's keys sign every tenant's bundles (two tenants may have a stream of one name).
  if (tenantId !== undefined && bundle.tenant_id !== tenantId)
    return fail(`the bundle is of tenant ${bundle.tenant_id}, not of ${tenantId} whose trust file was given`);

  // 2. Key: one of the given (trusted) keys, Ed25519, and valid at the bundle's creation ([not_before, not_after)).
  const key = (keys?.keys ?? []).find((k) => k.kid === bundle.key_id);
  if (!key) return fail(`key ${bundle.key_id} is not among the published ledger keys`);
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return fail(`key ${key.kid} is not an Ed25519 key`);
  const created = bundle.created_at_ms;
  if (created < Date.parse(key.not_before) || (key.not_after !== null && created >= Date.parse(key.not_after))) {
    return fail(`key ${key.kid} was not valid at the bundle's created_at (${bundle.created_at_iso})`);
  }

  // 3. Signature: Ed25519 (RFC 8032) over the UTF-8 bytes of the canonical unsigned bundle.
  if (typeof bundle.signature !== 'string' || !STRICT_BASE64.test(bundle.signature)) return fail('signature is not base64');
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  report.signature_valid = verify(
    null,
    Buffer.from(bundleSigningInput(bundle), 'utf8'),
    publicKey,
    Buffer.from(bundle.signature, 'base64'),
  );
  if (!report.signature_valid) return fail('the bundle signature does not verify');

  // 4. Chain: recompute every fact_hash in manifest order from the genesis hash to head_hash.
  const manifest = bundle.facts_manifest;
  if (facts.length < manifest.length) return fail(`the bundle covers ${manifest.length} facts but ${facts.length} were given`);
  let prevHash = GENESIS_PREV_HASH;
  let prevId = null;
  for (let i = 0; i < manifest.length; i++) {
    const fact = facts[i];
    const at = `fact ${fact?.fact_id} (position ${i + 1})`;
    if (fact?.fact_id !== manifest[i]) return fail(`chain broken at ${at}: the manifest has ${manifest[i]} at this position`);
    if (new Date(fact.sealed_at_ms).toISOString() !== fact.sealed_at_iso)
      return fail(`chain broken at ${at}: sealed_at_iso is not sealed_at_ms`);
    let hash;
    try {
      hash = factHash(fact, bundle, prevHash);
    } catch (err) {
      return fail(`chain broken at ${at}: ${err.message}`);
    }
    // Full facts carry their own links and hash: they must agree with the recomputation.
    for (const [name, expected] of [
      ['prev_hash', prevHash],
      ['parent_fact_id', prevId],
      ['fact_hash', hash],
      ['stream_id', bundle.stream_id],
      ['tenant_id', bundle.tenant_id],
    ]) {
      if (name in fact && fact[name] !== expected) return fail(`chain broken at ${at}: ${name} is ${fact[name]}, expected ${expected}`);
    }
    prevHash = hash;
    prevId = fact.fact_id;
    // A fact with its own fact_hash is verified on its own; list entries only once the head matches.
    if ('fact_hash' in fact) report.facts_verified = i + 1;
  }
  if (prevId !== bundle.head_fact_id) return fail(`the manifest ends at ${prevId}, not at head_fact_id ${bundle.head_fact_id}`);
  if (prevHash !== bundle.head_hash) {
    return fail(
      `the recomputed chain ends at ${prevHash}, not at the signed head_hash ${bundle.head_hash}: a fact differs from what was sealed ` +
        '(list entries carry no fact_hash; give full facts from GET /facts/{fact_id} to find which)',
    );
  }
  report.facts_verified = manifest.length;
  report.valid = true;
  return report;
}

// --- command line --------------------------------------------------------------------------------

function parseArgs(argv) {
  const args = { facts: [] };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const value = argv[i + 1];
    if (!name.startsWith('--') || value === undefined) throw new Error(`unexpected argument ${name}`);
    const key = name.slice(2);
    if (key === 'facts') args.facts.push(value);
    else if (['bundle', 'keys', 'trust', 'url', 'api-key', 'bundle-id'].includes(key)) args[key] = value;
    else throw new Error(`unknown option ${name}`);
    i++;
  }
  return args;
}

const readJson = (file) => parseExactJson(readFileSync(file, 'utf8'), file);

/** The ledger keys of a trust file (format arbiter.trust, written by `arbiter trust export`). */
function trustedLedgerKeys(trust) {
  if (trust?.format !== 'arbiter.trust' || !Array.isArray(trust.ledger_keys?.keys) || typeof trust.tenant_id !== 'string')
    throw new Error('the trust file is not a trust file (format arbiter.trust with a tenant_id, written by arbiter trust export)');
  return { keys: trust.ledger_keys.keys };
}
const factsOf = (doc) => (Array.isArray(doc) ? doc : Array.isArray(doc?.facts) ? doc.facts : null);

async function fetchInputs(url, apiKey, bundleId) {
  const get = async (path, authenticated = true) => {
    const res = await fetch(new URL(path, url), { headers: authenticated ? { 'X-API-Key': apiKey } : {} });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return parseExactJson(await res.text(), `GET ${path}`);
  };
  const bundle = await get(`/bundles/${encodeURIComponent(bundleId)}`);
  const keys = await get('/.well-known/ledger-keys', false);
  const facts = [];
  while (facts.length < bundle.facts_manifest.length) {
    const page = await get(`/streams/${encodeURIComponent(bundle.stream_id)}/facts?limit=1000&offset=${facts.length}`);
    if (page.facts.length === 0) break;
    facts.push(...page.facts);
  }
  return { bundle, keys, facts };
}

async function main(argv) {
  let inputs;
  let trust;
  let pinned = true;
  try {
    const args = parseArgs(argv);
    if (args.trust && args.keys) throw new Error('give either --trust or --keys, not both');
    trust = args.trust ? readJson(args.trust) : undefined;
    const held = trust ? trustedLedgerKeys(trust) : args.keys ? readJson(args.keys) : undefined;
    if (args.url) {
      if (!args['api-key'] || !args['bundle-id']) throw new Error('--url needs --api-key and --bundle-id');
      inputs = await fetchInputs(args.url, args['api-key'], args['bundle-id']);
      if (held) inputs.keys = held;
      else pinned = false;
    } else {
      if (!args.bundle || !held || args.facts.length === 0)
        throw new Error('give --bundle, --trust (or --keys) and at least one --facts (or --url)');
      const facts = [];
      for (const file of args.facts) {
        const list = factsOf(readJson(file));
        if (!list) throw new Error(`${file} holds neither a facts page nor an array of facts`);
        facts.push(...list);
      }
      inputs = { bundle: readJson(args.bundle), keys: held, facts };
    }
  } catch (err) {
    process.stderr.write(`verify-ledger-bundle: ${err.message}\n`);
    return 2;
  }
  const report = { ...verifyBundle({ ...inputs, tenantId: trust?.tenant_id }), pinned };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return !report.valid ? 1 : pinned ? 0 : 3;
}

// Run as a command (not when imported, e.g. by the tests).
if (process.argv[1] && /verify-ledger-bundle\.mjs$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}

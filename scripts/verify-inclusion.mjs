#!/usr/bin/env node
// Verifies that a fact is included in an Arbiter ledger stream under a signed checkpoint, from API
// output alone, with node:crypto and nothing of the project (docs/evidence.md "Verifying without
// Arbiter" states every byte checked here).
//
//   node scripts/verify-inclusion.mjs --inclusion inclusion.json --trust trust.json [--fact fact.json]
//   node scripts/verify-inclusion.mjs --inclusion inclusion.json --keys ledger-keys.json [--fact fact.json]
//
// --inclusion: GET /facts/{fact_id}/inclusion (or an evidence answer's `ledger` object, or the
//              internal inclusion answer with its `fact`)
// --trust:     the ledger keys you hold: a trust file (`arbiter trust export`, after a ledger rotation
//              `arbiter trust extend`), its `ledger_keys` (docs/evidence.md "Trusted keys"); the fact must
//              then be given (--fact) and be of the file's tenant (the ledger's keys sign every tenant's streams)
// --keys:      or a ledger key set you obtained yourself (GET /.well-known/ledger-keys); the checkpoint
//              proves nothing beyond the keys you give, so take them from a channel you trust
// --fact:      GET /facts/{fact_id}: its fact_hash is recomputed from its content and used as the
//              leaf. Without it, the leaf is the fact_hash the inclusion input carries (if any).
// Checks: fact → fact_hash → leaf hash → (inclusion path) → root_hash of the checkpoint → the
// checkpoint's Ed25519 signature under a published key valid at its created_at_ms.
// Prints a JSON report; exit 0 valid, 1 invalid, 2 unusable input.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const DIGEST = /^sha256:([0-9a-f]{64})$/;
const CHECKPOINT_FIELDS = ['stream_id', 'tree_size', 'root_hash', 'created_at_ms', 'key_id', 'signature_alg'];
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

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
// Enough of RFC 8785 for any JSON value parsed by JSON.parse: strings and literals as
// JSON.stringify writes them (section 3.2.2.2, lone surrogates refused), numbers as ECMAScript
// Number-to-String (3.2.2.3), members sorted by UTF-16 code units (3.2.3), no whitespace.
export function canonicalize(value) {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${value} has no JSON form`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string') {
    if (/[\uD800-\uDFFF]/u.test(value)) throw new Error('string with a lone surrogate');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(',')}]`;
  if (typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((name) => `${canonicalize(name)}:${canonicalize(value[name])}`)
      .join(',')}}`;
  }
  throw new Error(`a ${typeof value} has no JSON form`);
}

const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** fact_hash: sha256 over the canonical JSON of these seven members, plus sealed_by when the fact has one (docs/ledger-formats.md). */
export function factHash(fact) {
  const { actor, custom_payload, fact_id, prev_hash, sealed_at_ms, sealed_by = null, stream_id, tenant_id } = fact;
  // sealed_by is a member only when the fact has one (facts sealed before the ledger recorded it have none).
  const members = {
    actor,
    custom_payload,
    fact_id,
    prev_hash,
    sealed_at_ms,
    stream_id,
    tenant_id,
    ...(sealed_by === null ? {} : { sealed_by }),
  };
  return `sha256:${sha256(Buffer.from(canonicalize(members), 'utf8')).toString('hex')}`;
}

// --- RFC 9162 section 2.1 ------------------------------------------------------------------------
/** 2.1.1: the leaf of a fact is SHA-256(0x00 || the 32 bytes of its fact_hash). */
export const leafHash = (digest) => sha256(Buffer.from([0]), bytesOf(digest));
/** 2.1.1: an interior node is SHA-256(0x01 || left || right). */
const nodeHash = (left, right) => sha256(Buffer.from([1]), left, right);

function bytesOf(digest) {
  const m = typeof digest === 'string' ? DIGEST.exec(digest) : null;
  if (!m) throw new Error(`${JSON.stringify(digest)} is not sha256:<64 lowercase hex>`);
  return Buffer.from(m[1], 'hex');
}

/** 2.1.3.2: the root the inclusion path leads to from the leaf, or null when it cannot be a path of (index, size). */
export function rootFromInclusion(leafIndex, treeSize, leaf, path) {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return null;
  let fn = BigInt(leafIndex);
  let sn = BigInt(treeSize) - 1n;
  let r = leaf;
  for (const p of path) {
    if (sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : null;
}

/** The checkpoint minus `signature`, canonical: the exact bytes the Ed25519 signature covers. */
export function checkpointSigningInput(checkpoint) {
  const unsigned = {};
  for (const name of CHECKPOINT_FIELDS) unsigned[name] = checkpoint[name];
  return canonicalize(unsigned);
}

/** The parts of any accepted inclusion input: the public answer, an evidence `ledger` object, the internal answer. */
function partsOf(input) {
  const doc = input && typeof input === 'object' && input.ledger && typeof input.ledger === 'object' ? input.ledger : input;
  if (!doc || typeof doc !== 'object') throw new Error('the inclusion input is not an object');
  return {
    factId: doc.fact_id ?? doc.fact?.fact_id,
    factHash: doc.fact_hash ?? doc.fact?.fact_hash,
    fact: doc.fact,
    leafIndex: doc.leaf_index,
    treeSize: doc.tree_size,
    path: doc.inclusion_path,
    checkpoint: doc.checkpoint,
  };
}

export function verifyInclusion({ inclusion, keys, fact, tenantId }) {
  const errors = [];
  const report = {
    valid: false,
    fact_id: null,
    stream_id: null,
    tenant_id: null,
    leaf_index: null,
    tree_size: null,
    root_hash: null,
    key_id: null,
    leaf_checked_against: null,
    signature_valid: false,
    errors,
  };
  const fail = (message) => {
    errors.push(message);
    return report;
  };
  let parts;
  try {
    parts = partsOf(inclusion);
  } catch (err) {
    return fail(err.message);
  }
  const { checkpoint, leafIndex, treeSize, path } = parts;
  fact = fact ?? parts.fact;
  Object.assign(report, { fact_id: parts.factId ?? fact?.fact_id ?? null, leaf_index: leafIndex, tree_size: treeSize });

  // 1. Shape.
  if (!checkpoint || typeof checkpoint !== 'object') return fail('no checkpoint');
  for (const name of [...CHECKPOINT_FIELDS, 'signature']) if (!(name in checkpoint)) return fail(`checkpoint has no ${name}`);
  for (const name of Object.keys(checkpoint))
    if (![...CHECKPOINT_FIELDS, 'signature'].includes(name))
      return fail(`checkpoint has an unknown field ${name}: it would not be covered by the signature`);
  Object.assign(report, { stream_id: checkpoint.stream_id, root_hash: checkpoint.root_hash, key_id: checkpoint.key_id });
  if (checkpoint.signature_alg !== 'Ed25519') return fail(`signature_alg ${checkpoint.signature_alg} is not Ed25519`);
  if (!Number.isSafeInteger(treeSize) || treeSize !== checkpoint.tree_size)
    return fail(`tree_size ${treeSize} is not the checkpoint's tree_size ${checkpoint.tree_size}`);
  if (!Array.isArray(path)) return fail('inclusion_path is not an array');

  // 2. The fact and its leaf: the fact's content hashes to fact_hash, which is the leaf's data.
  let leafDigest = parts.factHash;
  if (fact) {
    let recomputed;
    try {
      recomputed = factHash(fact);
    } catch (err) {
      return fail(`the fact has no hash: ${err.message}`);
    }
    if (fact.fact_hash !== undefined && fact.fact_hash !== recomputed)
      return fail(`the fact's content hashes to ${recomputed}, not to its fact_hash ${fact.fact_hash}`);
    if (leafDigest !== undefined && leafDigest !== recomputed)
      return fail(`the inclusion names fact_hash ${leafDigest}, but the fact hashes to ${recomputed}`);
    if (report.fact_id !== fact.fact_id) return fail(`the inclusion is of fact ${report.fact_id}, not of ${fact.fact_id}`);
    if (fact.stream_id !== checkpoint.stream_id)
      return fail(`the fact is of stream ${fact.stream_id}, the checkpoint of ${checkpoint.stream_id}`);
    if (fact.sequence !== undefined && fact.sequence - 1 !== leafIndex)
      return fail(`leaf_index ${leafIndex} is not the fact's sequence ${fact.sequence} − 1`);
    leafDigest = recomputed;
    report.leaf_checked_against = 'fact content';
    report.tenant_id = fact.tenant_id ?? null;
    // A checkpoint names its stream alone; the fact's tenant (which its hash covers) says whose data it is.
    if (tenantId !== undefined && fact.tenant_id !== tenantId)
      return fail(`the fact is of tenant ${fact.tenant_id}, not of ${tenantId} whose trust file was given`);
  } else if (tenantId !== undefined) {
    return fail(`a trust file is one tenant's (${tenantId}): give the fact (--fact) so that its tenant can be checked`);
  } else if (leafDigest !== undefined) {
    report.leaf_checked_against = 'fact_hash as given';
  } else {
    return fail('neither a fact (--fact) nor a fact_hash in the input: there is no leaf to check');
  }

  // 3. Leaf → root (RFC 9162 2.1.3.2), equal to the checkpoint's root_hash.
  let root;
  try {
    root = rootFromInclusion(leafIndex, treeSize, leafHash(leafDigest), path.map(bytesOf));
  } catch (err) {
    return fail(err.message);
  }
  if (root === null) return fail(`the inclusion path has the wrong length for leaf ${leafIndex} of ${treeSize}`);
  if (`sha256:${root.toString('hex')}` !== checkpoint.root_hash)
    return fail(`the path leads to sha256:${root.toString('hex')}, not to the checkpoint's root_hash ${checkpoint.root_hash}`);

  // 4. The checkpoint: signed by a published Ed25519 key valid at created_at_ms ([not_before, not_after)).
  const key = (keys?.keys ?? []).find((k) => k.kid === checkpoint.key_id);
  if (!key) return fail(`key ${checkpoint.key_id} is not among the published ledger keys`);
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return fail(`key ${key.kid} is not an Ed25519 key`);
  const at = checkpoint.created_at_ms;
  if (
    !Number.isSafeInteger(at) ||
    at < Date.parse(key.not_before) ||
    (key.not_after !== null && key.not_after !== undefined && at >= Date.parse(key.not_after))
  ) {
    return fail(`key ${key.kid} was not valid at the checkpoint's created_at_ms (${at})`);
  }
  if (typeof checkpoint.signature !== 'string' || !STRICT_BASE64.test(checkpoint.signature)) return fail('signature is not base64');
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  report.signature_valid = verify(
    null,
    Buffer.from(checkpointSigningInput(checkpoint), 'utf8'),
    publicKey,
    Buffer.from(checkpoint.signature, 'base64'),
  );
  if (!report.signature_valid) return fail('the checkpoint signature does not verify');
  report.valid = true;
  return report;
}

// --- command line --------------------------------------------------------------------------------

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    if (!['--inclusion', '--keys', '--trust', '--fact'].includes(name) || argv[i + 1] === undefined)
      throw new Error(`unexpected argument ${name}`);
    args[name.slice(2)] = argv[i + 1];
  }
  if (!args.inclusion || !args.keys === !args.trust)
    throw new Error('give --inclusion and either --trust or --keys (and optionally --fact)');
  return args;
}

/** The ledger keys of a trust file (format arbiter.trust, written by `arbiter trust export`). */
export function trustedLedgerKeys(trust) {
  if (trust?.format !== 'arbiter.trust' || !Array.isArray(trust.ledger_keys?.keys) || typeof trust.tenant_id !== 'string')
    throw new Error('the trust file is not a trust file (format arbiter.trust with a tenant_id, written by arbiter trust export)');
  return { keys: trust.ledger_keys.keys };
}

function main(argv) {
  let inputs;
  try {
    const args = parseArgs(argv);
    const read = (file) => parseExactJson(readFileSync(file, 'utf8'), file);
    const trust = args.trust ? read(args.trust) : undefined;
    const keys = trust ? trustedLedgerKeys(trust) : read(args.keys);
    inputs = { inclusion: read(args.inclusion), keys, fact: args.fact ? read(args.fact) : undefined, tenantId: trust?.tenant_id };
  } catch (err) {
    process.stderr.write(`verify-inclusion: ${err.message}\n`);
    return 2;
  }
  const report = verifyInclusion(inputs);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.valid ? 0 : 1;
}

// Run as a command (not when imported, e.g. by the tests).
if (process.argv[1] && /verify-inclusion\.mjs$/.test(process.argv[1])) process.exitCode = main(process.argv.slice(2));

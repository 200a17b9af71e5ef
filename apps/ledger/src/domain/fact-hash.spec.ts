import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import canonicalize from 'canonicalize';
import { canonicalJson } from '@arbiter/canonical';
import { computeFactHash, computeFactHashFromValue, factHashPreimage, GENESIS_PREV_HASH } from './fact-hash';

// The worked example of docs/ledger-formats.md "fact_hash".
const FIRST = {
  fact_id: 'fct-000000000000000000000001',
  stream_id: 'orders-2026',
  tenant_id: 'tnt-0123456789abcdef01234567',
  actor: 'agent:billing',
  sealed_at_ms: 1795308744138,
  prev_hash: GENESIS_PREV_HASH,
};
const FIRST_PAYLOAD = { currency: 'EUR', amount: 12.5, note: 'café ✓', lines: [{ sku: 'A-1', qty: 2 }] };
const FIRST_PREIMAGE =
  '{"actor":"agent:billing","custom_payload":{"amount":12.5,"currency":"EUR","lines":[{"qty":2,"sku":"A-1"}],"note":"café ✓"},' +
  '"fact_id":"fct-000000000000000000000001","prev_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000",' +
  '"sealed_at_ms":1795308744138,"stream_id":"orders-2026","tenant_id":"tnt-0123456789abcdef01234567"}';
const FIRST_HASH = 'sha256:867ad1a4602871ac88e4dce2dfab7f7b7e0096ce6c20f11029ad5e3fd4d50286';
const SECOND_HASH = 'sha256:394ff394b82a5ca98bfe85e9299834a8dc20399acdde40980ce69bc568d6c33f';
// The same first fact, sealed by a principal the ledger recorded (docs/ledger-formats.md "fact_hash", second example).
const SEALED_BY = 'agn-0123456789abcdef01234567';
const SEALED_PREIMAGE =
  '{"actor":"agent:billing","custom_payload":{"amount":12.5,"currency":"EUR","lines":[{"qty":2,"sku":"A-1"}],"note":"café ✓"},' +
  '"fact_id":"fct-000000000000000000000001","prev_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000",' +
  '"sealed_at_ms":1795308744138,"sealed_by":"agn-0123456789abcdef01234567","stream_id":"orders-2026","tenant_id":"tnt-0123456789abcdef01234567"}';
const SEALED_HASH = 'sha256:a76b70c88170fd1baa8694fd4a3b6439c349dca0181d8fc7e27db12ccb8e1629';

const nodeSha256 = (s: string) => `sha256:${createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex')}`;

describe(computeFactHash.name, () => {
  it('hashes the documented preimage of the worked example, byte for byte', () => {
    const sut = factHashPreimage(FIRST, canonicalJson(FIRST_PAYLOAD));
    expect(sut).toBe(FIRST_PREIMAGE);
    expect(nodeSha256(FIRST_PREIMAGE)).toBe(FIRST_HASH);
    expect(computeFactHash(FIRST, canonicalJson(FIRST_PAYLOAD))).toBe(FIRST_HASH);
  });

  it('adds sealed_by as an eighth member when the fact has one, and hashes as before when it has none', () => {
    const sut = factHashPreimage({ ...FIRST, sealed_by: SEALED_BY }, canonicalJson(FIRST_PAYLOAD));
    expect(sut).toBe(SEALED_PREIMAGE);
    expect(Buffer.byteLength(SEALED_PREIMAGE, 'utf8')).toBe(394);
    expect(nodeSha256(SEALED_PREIMAGE)).toBe(SEALED_HASH);
    expect(computeFactHash({ ...FIRST, sealed_by: SEALED_BY }, canonicalJson(FIRST_PAYLOAD))).toBe(SEALED_HASH);
    expect(computeFactHash({ ...FIRST, sealed_by: null }, canonicalJson(FIRST_PAYLOAD))).toBe(FIRST_HASH);
  });

  it('chains the second example fact to the first through prev_hash', () => {
    const second = {
      ...FIRST,
      fact_id: 'fct-000000000000000000000002',
      actor: 'human:alice',
      sealed_at_ms: 1795308744139,
      prev_hash: FIRST_HASH,
    };
    expect(computeFactHashFromValue(second, {})).toBe(SECOND_HASH);
  });

  it('is exactly the RFC 8785 JSON of the seven members, with sealed_by when there is one (checked with the canonicalize package), for any input', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !/[\uD800-\uDFFF]/u.test(s));
    fc.assert(
      fc.property(
        fc.record({
          fact_id: text,
          stream_id: text,
          tenant_id: text,
          actor: text,
          prev_hash: text,
          sealed_at_ms: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
        }),
        fc.option(text, { nil: null }),
        fc.dictionary(text, fc.jsonValue({ maxDepth: 3 })),
        (fields, sealedBy, payload) => {
          const expected = canonicalize({ ...fields, ...(sealedBy === null ? {} : { sealed_by: sealedBy }), custom_payload: payload });
          expect(factHashPreimage({ ...fields, sealed_by: sealedBy }, canonicalJson(payload))).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('is the worked example docs/ledger-formats.md states', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../../docs/ledger-formats.md'), 'utf8');
    for (const text of [FIRST_PREIMAGE, FIRST_HASH, SECOND_HASH, SEALED_PREIMAGE, SEALED_HASH]) expect(doc).toContain(text);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { bytesToBase64, ed25519Sign, hexToBytes } from '@arbiter/crypto';
import { bundleSigningInput, isoOf, type UnsignedBundle } from './bundle-format';

// The worked example of docs/ledger-formats.md "Signature input", signed with the RFC 8032
// section 7.1 TEST 1 key.
const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const EXAMPLE: UnsignedBundle = {
  bundle_id: 'bnd-000000000000000000000001',
  stream_id: 'orders-2026',
  tenant_id: 'tnt-0123456789abcdef01234567',
  bundle_version: 1,
  head_fact_id: 'fct-000000000000000000000002',
  head_hash: 'sha256:394ff394b82a5ca98bfe85e9299834a8dc20399acdde40980ce69bc568d6c33f',
  facts_manifest: ['fct-000000000000000000000001', 'fct-000000000000000000000002'],
  created_at_ms: 1795308745000,
  created_at_iso: isoOf(1795308745000),
  signature_alg: 'ed25519',
  key_id: 'ledger:2026',
};
const EXAMPLE_INPUT =
  '{"bundle_id":"bnd-000000000000000000000001","bundle_version":1,"created_at_iso":"2026-11-22T00:52:25.000Z","created_at_ms":1795308745000,' +
  '"facts_manifest":["fct-000000000000000000000001","fct-000000000000000000000002"],"head_fact_id":"fct-000000000000000000000002",' +
  '"head_hash":"sha256:394ff394b82a5ca98bfe85e9299834a8dc20399acdde40980ce69bc568d6c33f","key_id":"ledger:2026","signature_alg":"ed25519",' +
  '"stream_id":"orders-2026","tenant_id":"tnt-0123456789abcdef01234567"}';
const EXAMPLE_SIGNATURE = 'euBIAclqLk2mOzk3uKGHcLMA2HplkbIHYyGnJTLNRuRpx84UKtcZizaeBQCE1WuDkgMpRe3BaiB64WuAmtykAg==';

describe(bundleSigningInput.name, () => {
  it('is the documented canonical JSON of the bundle without signature', () => {
    expect(bundleSigningInput(EXAMPLE)).toBe(EXAMPLE_INPUT);
    expect(bundleSigningInput({ ...EXAMPLE, signature: 'x' } as UnsignedBundle)).toBe(EXAMPLE_INPUT);
  });

  it('gives the documented signature with @noble (the service) that node:crypto verifies', () => {
    const signature = ed25519Sign(EXAMPLE_INPUT, hexToBytes(SEED));
    expect(bytesToBase64(signature)).toBe(EXAMPLE_SIGNATURE);
    const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(SEED, 'hex')]);
    const publicKey = createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
    expect(verify(null, Buffer.from(EXAMPLE_INPUT, 'utf8'), publicKey, Buffer.from(EXAMPLE_SIGNATURE, 'base64'))).toBe(true);
  });
  it('is the worked example docs/ledger-formats.md states', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../../docs/ledger-formats.md'), 'utf8');
    for (const text of [EXAMPLE_INPUT, EXAMPLE_SIGNATURE, SEED]) expect(doc).toContain(text);
  });
});

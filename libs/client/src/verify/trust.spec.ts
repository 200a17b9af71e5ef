import { makeConsultation, makeKey, TENANT, type TestKey } from '../../test/fixtures';
import {
  keySealPayloadOf,
  makeLedgerKey,
  sealedPayloadOf,
  signCheckpoint,
  signTransition,
  TestStream,
  type LedgerTestKey,
  type TestFact,
} from '../../test/ledger-fixtures';
import { InputError } from '../errors';
import type { RuleVersion } from '../types';
import { EVIDENCE_PACK_FORMAT, verifyEvidencePack, type EvidencePackV3 } from './evidence';
import { extendTrust, parseTrustFile, TRUST_FILE_FORMAT, type TrustAnchors, type TrustFile } from './trust';

// Keys, facts, checkpoints and transition statements are made by node:crypto and a hand-written RFC 8785
// (test/fixtures.ts, test/ledger-fixtures.ts); the SDK checks them with its own code.

const KEYS_STREAM = `arbiter.${TENANT}.keys`;
const ms = Date.parse;
const jan = '2026-01-01T00:00:00.000Z';
const feb = '2026-02-01T00:00:00.000Z';
const mar = '2026-03-01T00:00:00.000Z';

interface World {
  /** The tenant's first key, and the one an emergency rotation made after the trust file was taken. */
  first: TestKey;
  second: TestKey;
  ledger: LedgerTestKey;
  keys: TestStream;
  /** What the auditor took out of band before the rotation. */
  anchors: TrustAnchors;
}

function world(): World {
  const first = makeKey(`${TENANT}:2026`, { notBefore: jan });
  const second = makeKey(`${TENANT}:2026.1`, { notBefore: feb });
  const ledger = makeLedgerKey('ledger:2026', jan);
  const keys = new TestStream(KEYS_STREAM, TENANT, ledger);
  keys.seal('service:verdict', keySealPayloadOf(first.jwk, 'first'), first.jwk.kid);
  keys.seal('service:verdict', keySealPayloadOf(second.jwk, 'emergency', [{ kid: first.jwk.kid, not_after: feb }]), second.jwk.kid);
  const anchors = { tenant_id: TENANT, jwks: { keys: [first.jwk] }, ledger_keys: { keys: [ledger.jwk] } };
  return { first, second, ledger, keys, anchors };
}

const historyOf = (s: TestStream, facts: unknown[] = s.facts) => ({ stream_id: s.streamId, facts, checkpoint: s.checkpoint(facts.length) });
const listEntries = (facts: TestFact[]) =>
  facts.map(({ fact_id, sealed_at_ms, sealed_at_iso, actor, custom_payload }) => ({
    fact_id,
    sealed_at_ms,
    sealed_at_iso,
    actor,
    custom_payload,
  }));
const failures = (r: { checks: { check: string; status: string; message: string }[] }) => r.checks.filter((c) => c.status === 'fail');

describe(parseTrustFile.name, () => {
  const file = (): TrustFile => ({
    format: TRUST_FILE_FORMAT,
    version: 1,
    exported_at: mar,
    source: { verdict_url: 'v', ledger_url: 'l' },
    ...world().anchors,
  });

  it('accepts a trust file as `arbiter trust export` writes it', () => {
    expect(parseTrustFile(JSON.parse(JSON.stringify(file())))).toMatchObject({ tenant_id: TENANT });
  });

  it.each<[string, (f: TrustFile) => unknown, string]>([
    ['another format', (f) => ({ ...f, format: 'arbiter.evidence-pack' }), 'is not a trust file'],
    ['no tenant', (f) => ({ ...f, tenant_id: undefined }), 'names no tenant'],
    [
      'a verdict key of another tenant',
      (f) => ({ ...f, jwks: { keys: [makeKey('tnt-other:2026').jwk] } }),
      `must hold the EC P-256 keys of tenant ${TENANT}`,
    ],
    [
      'a ledger key that is not Ed25519',
      (f) => ({ ...f, ledger_keys: { keys: [makeKey('ledger:2026').jwk] } }),
      "ledger_keys must hold the ledger's Ed25519 keys",
    ],
  ])('refuses %s with InputError', (_what, change, message) => {
    expect(() => parseTrustFile(change(file()))).toThrow(InputError);
    expect(() => parseTrustFile(change(file()))).toThrow(message);
  });
});

describe(extendTrust.name, () => {
  it('accepts a verdict key sealed in the keys stream under a checkpoint of a trusted ledger key, and closes the key it retired', () => {
    const w = world();
    for (const facts of [w.keys.facts, listEntries(w.keys.facts)]) {
      const { trusted, report } = extendTrust(w.anchors, { keys_stream: historyOf(w.keys, facts) });
      expect(failures(report)).toEqual([]);
      expect(trusted.added).toEqual([w.second.jwk.kid]);
      expect(trusted.jwks.keys.map((k) => [k.kid, k.not_before, k.not_after])).toEqual([
        [w.first.jwk.kid, jan, feb],
        [w.second.jwk.kid, feb, null],
      ]);
      expect(report.checks.find((c) => c.check === `keys_stream.${w.second.jwk.kid}`)?.message).toBe(
        `verdict key ${w.second.jwk.kid} accepted: sealed in the keys stream (emergency, valid from ${feb}); retires ${w.first.jwk.kid} at ${feb}`,
      );
    }
    // The anchors are not changed.
    expect(w.anchors.jwks.keys[0].not_after).toBeNull();
  });

  it('fails a forged history: a changed key, a re-hashed fact, a fact left out, a foreign checkpoint signer, another actor', () => {
    const w = world();
    const rogue = makeKey(`${TENANT}:2026.1`, { notBefore: feb });
    const changed = w.keys.facts.map((f, i) => (i === 1 ? { ...f, custom_payload: keySealPayloadOf(rogue.jwk, 'emergency') } : f));
    expect(failures(extendTrust(w.anchors, { keys_stream: { ...historyOf(w.keys), facts: changed } }).report).map((c) => c.check)).toEqual([
      'keys_stream',
    ]);

    // A stream made again from scratch with the rogue key: its root is not the one the ledger signed.
    const forged = new TestStream(KEYS_STREAM, TENANT, w.ledger);
    forged.seal('service:verdict', keySealPayloadOf(w.first.jwk, 'first'), w.first.jwk.kid);
    forged.seal('service:verdict', keySealPayloadOf(rogue.jwk, 'emergency'), rogue.jwk.kid);
    const rehashed = extendTrust(w.anchors, { keys_stream: { ...historyOf(w.keys), facts: forged.facts } });
    expect(failures(rehashed.report)).toEqual([
      { check: 'keys_stream', status: 'fail', message: expect.stringContaining('a fact was changed, added or left out') },
    ]);
    expect(rehashed.trusted.added).toEqual([]);

    // ...and with its own checkpoint, re-signed by a new key under the ledger's real kid.
    const impostor = makeLedgerKey('ledger:2026', jan);
    const { signature: _s, ...unsigned } = forged.checkpoint();
    const resigned = extendTrust(w.anchors, {
      keys_stream: { stream_id: KEYS_STREAM, facts: forged.facts, checkpoint: signCheckpoint(unsigned, impostor) },
    });
    expect(failures(resigned.report).map((c) => c.check)).toEqual(['keys_stream.checkpoint.signature']);

    const leftOut = extendTrust(w.anchors, { keys_stream: { ...historyOf(w.keys), facts: w.keys.facts.slice(0, 1) } });
    expect(failures(leftOut.report).map((c) => c.check)).toEqual(['keys_stream.checkpoint.shape']);

    const other = new TestStream(KEYS_STREAM, TENANT, w.ledger);
    other.seal('agent:1', keySealPayloadOf(rogue.jwk, 'first'), rogue.jwk.kid);
    expect(failures(extendTrust(w.anchors, { keys_stream: historyOf(other) }).report)).toEqual([
      {
        check: `keys_stream.${rogue.jwk.kid}`,
        status: 'fail',
        message: expect.stringContaining('was sealed by "agent:1", not service:verdict'),
      },
    ]);

    // The actor is only what the sealer said; the ledger's sealed_by (hashed) must be a service's.
    const byAgent = new TestStream(KEYS_STREAM, TENANT, w.ledger);
    byAgent.seal('service:verdict', keySealPayloadOf(rogue.jwk, 'first'), rogue.jwk.kid, 'agn-1');
    expect(failures(extendTrust(w.anchors, { keys_stream: historyOf(byAgent) }).report)).toEqual([
      {
        check: `keys_stream.${rogue.jwk.kid}`,
        status: 'fail',
        message: expect.stringContaining('was sealed by principal "agn-1", not by a service (service:internal)'),
      },
    ]);
  });

  it('fails a key change naming a day the calendar lacks (2026-02-30 would read as March 2)', () => {
    const w = world();
    const stream = new TestStream(KEYS_STREAM, TENANT, w.ledger);
    stream.seal('service:verdict', keySealPayloadOf(w.first.jwk, 'first'), w.first.jwk.kid);
    const late = keySealPayloadOf(w.second.jwk, 'emergency', [{ kid: w.first.jwk.kid, not_after: '2026-02-30T00:00:00.000Z' }]);
    stream.seal('service:verdict', late, w.second.jwk.kid);
    const result = extendTrust(w.anchors, { keys_stream: historyOf(stream) });
    expect(failures(result.report)).toEqual([
      { check: `keys_stream.${w.second.jwk.kid}`, status: 'fail', message: expect.stringContaining('retired must list {kid, not_after}') },
    ]);
    expect(result.trusted.added).toEqual([]);
  });

  it('fails a keys stream that gives a trusted kid another public key', () => {
    const w = world();
    const anchors = { ...w.anchors, jwks: { keys: [w.first.jwk, makeKey(w.second.jwk.kid, { notBefore: feb }).jwk] } };
    expect(failures(extendTrust(anchors, { keys_stream: historyOf(w.keys) }).report)).toEqual([
      {
        check: `keys_stream.${w.second.jwk.kid}`,
        status: 'fail',
        message: `the keys stream gives ${w.second.jwk.kid} another public key than the trusted ${w.second.jwk.kid}`,
      },
    ]);
  });

  describe('ledger transitions', () => {
    const l1 = makeLedgerKey('ledger:2026', jan);
    const l2 = makeLedgerKey('ledger:2026.1', feb);
    const l3 = makeLedgerKey('ledger:2026.2', mar);
    const anchors: TrustAnchors = { tenant_id: TENANT, jwks: { keys: [] }, ledger_keys: { keys: [l1.jwk] } };
    const chain = [signTransition([l1], l2, ms(feb)), signTransition([l2], l3, ms(mar))];

    it('accepts each key introduced by a trusted key, in order, and closes the retired ones', () => {
      const { trusted, report } = extendTrust(anchors, { ledger_transitions: [...chain].reverse() });
      expect(failures(report)).toEqual([]);
      expect(trusted.added).toEqual(['ledger:2026.1', 'ledger:2026.2']);
      expect(trusted.ledger_keys.keys.map((k) => [k.kid, k.not_before, k.not_after])).toEqual([
        ['ledger:2026', jan, feb],
        ['ledger:2026.1', feb, mar],
        ['ledger:2026.2', mar, null],
      ]);
    });

    it('ignores a statement signed only by keys the verifier does not hold, and fails one claiming a trusted kid it was not signed by', () => {
      const stranger = makeLedgerKey('ledger:2025', jan);
      const { trusted, report } = extendTrust(anchors, { ledger_transitions: [signTransition([stranger], l2, ms(feb))] });
      expect(trusted.added).toEqual([]);
      expect(report.checks).toEqual([
        {
          check: 'ledger_transition.ledger:2026.1',
          status: 'info',
          message: expect.stringContaining('not accepted: signed by no key you trust (ledger:2025, ledger:2026.1)'),
        },
      ]);
      const impostor = makeLedgerKey('ledger:2026', jan);
      const claimed = extendTrust(anchors, { ledger_transitions: [signTransition([impostor], l2, ms(feb))] });
      expect(claimed.trusted.added).toEqual([]);
      expect(failures(claimed.report)).toEqual([
        {
          check: 'ledger_transition.ledger:2026.1',
          status: 'fail',
          message: 'the signature of trusted key ledger:2026 does not verify: the statement was changed or forged',
        },
      ]);
    });

    it('fails a statement whose trusted signature or own signature does not verify', () => {
      const changed = { ...chain[0], key: { ...chain[0].key, x: l3.jwk.x } };
      expect(failures(extendTrust(anchors, { ledger_transitions: [changed] }).report)[0].message).toContain(
        'does not carry a valid signature of that key',
      );
      const selfSignedByNew = signTransition([l1], l3, ms(feb), [l3]);
      const tampered = {
        ...selfSignedByNew,
        key: { ...selfSignedByNew.key },
        signatures: [...selfSignedByNew.signatures, { key_id: 'ledger:2026', signature: chain[0].signatures[0].signature }],
      };
      expect(failures(extendTrust(anchors, { ledger_transitions: [tampered] }).report)[0].message).toContain(
        'the signature of trusted key ledger:2026 does not verify',
      );
    });

    it('lets a key already known to be retired confirm its successor, never introduce another (a fork or a backdated statement of a leaked key)', () => {
      const later: TrustAnchors = { ...anchors, ledger_keys: { keys: [{ ...l1.jwk, not_after: feb }, l2.jwk] } };
      expect(failures(extendTrust(later, { ledger_transitions: [chain[0]] }).report)).toEqual([]);
      const backdated = signTransition([l1], l3, ms('2026-01-15T00:00:00.000Z'));
      const { trusted, report } = extendTrust(later, { ledger_transitions: [backdated, chain[0]] });
      expect(failures(report)).toEqual([
        {
          check: 'ledger_transition.ledger:2026.2',
          status: 'fail',
          message: expect.stringContaining(
            'trusted key ledger:2026 was retired at 2026-02-01T00:00:00.000Z: it cannot introduce another key',
          ),
        },
      ]);
      expect(trusted.added).toEqual([]);
    });

    it('verifies a keys stream checkpoint signed by a ledger key reached through a transition', () => {
      const w = world();
      const keys = new TestStream(KEYS_STREAM, TENANT, l2);
      for (const f of w.keys.facts) keys.seal(f.actor, f.custom_payload, f.client_ref);
      const history = {
        ledger_transitions: [chain[0]],
        keys_stream: { stream_id: KEYS_STREAM, facts: keys.facts, checkpoint: keys.checkpoint(2, ms('2026-02-15T00:00:00.000Z')) },
      };
      const { trusted, report } = extendTrust({ ...w.anchors, ledger_keys: anchors.ledger_keys }, history);
      expect(failures(report)).toEqual([]);
      expect(trusted.added).toEqual(['ledger:2026.1', w.second.jwk.kid]);
    });
  });
});

describe(`${verifyEvidencePack.name} (version 3, trusted keys)`, () => {
  const now = ms('2026-03-01T12:00:00.000Z');
  const ruleVersion = {
    id: 'rv-large-1',
    rule_id: 'rul-large',
    tenant_id: TENANT,
    version: 1,
    statement: 'Large transfers need approval',
    severity: 'REQUIRES_APPROVAL',
  } as RuleVersion;

  /** A v3 pack of a consultation signed by the key made after the auditor's trust file. */
  function packV3(w: World): EvidencePackV3 {
    const consultation = makeConsultation(w.second, {}, now) as unknown as EvidencePackV3['consultation'];
    const stream = new TestStream(`arbiter.${TENANT}.consultations`, TENANT, w.ledger);
    const fact = stream.seal('service:verdict', sealedPayloadOf(consultation as never), consultation.id);
    const proof = stream.inclusion(fact.fact_id);
    return {
      format: EVIDENCE_PACK_FORMAT,
      version: 3,
      exported_at: '2026-03-02T00:00:00.000Z',
      source: { verdict_url: 'http://verdict', ledger_url: 'http://ledger', tenant_id: TENANT },
      consultation,
      jwks: { keys: [{ ...w.first.jwk, not_after: feb }, w.second.jwk] },
      rule_versions: [ruleVersion],
      approvals: [],
      approvals_available: true,
      ledger: {
        fact: fact as never,
        leaf_index: proof.leaf_index,
        tree_size: proof.tree_size,
        inclusion_path: proof.inclusion_path,
        checkpoint: proof.checkpoint,
        keys: { keys: [w.ledger.jwk], transitions: [] },
      },
      key_history: { stream_id: KEYS_STREAM, facts: listEntries(w.keys.facts) as never, checkpoint: w.keys.checkpoint() },
    };
  }

  it("verifies a consultation signed by a key made after the trust file, through the pack's key history", async () => {
    const w = world();
    const report = await verifyEvidencePack(packV3(w), { now, trust: w.anchors });
    expect(failures(report)).toEqual([]);
    expect(report.status).toBe('valid');
  });

  it('without the history, the newer key stays untrusted; with a forged history, the pack fails', async () => {
    const w = world();
    const bare = packV3(w);
    bare.key_history = { stream_id: KEYS_STREAM, facts: [], checkpoint: null };
    expect(failures(await verifyEvidencePack(bare, { now, trust: w.anchors }))).toEqual([
      {
        check: 'consultation.signature',
        status: 'fail',
        message: expect.stringMatching(/^unknown_kid: no key tnt-[^ ]+:2026\.1 in the tenant's key set/),
      },
    ]);
    const forged = packV3(w);
    const history = new TestStream(KEYS_STREAM, TENANT, makeLedgerKey('ledger:2026', jan));
    history.seal('service:verdict', keySealPayloadOf(w.second.jwk, 'emergency'), w.second.jwk.kid);
    forged.key_history = historyOf(history) as never;
    const report = await verifyEvidencePack(forged, { now, trust: w.anchors });
    expect(report.status).toBe('invalid');
    expect(failures(report).map((c) => c.check)).toEqual(['trust.keys_stream.checkpoint.signature', 'consultation.signature']);
  });
});

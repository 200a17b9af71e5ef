import { createHash } from 'node:crypto';
import { createEs256Signer, generateEs256KeyPair, verifyEs256Jws } from '@arbiter/crypto';
import { compilePolicy, evaluate, type CompleteEvaluation } from '@arbiter/policy';
import { buildConsultation, contextHash, normativeHash, type DecisionInput } from './consultation-builder';

/**
 * A hand-written RFC 8785 serialiser: the hashes must not be checked with the code that made them.
 * Members whose value is undefined are absent from JSON, as JSON.stringify leaves them out.
 */
function jcs(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${jcs(o[k])}`)
    .join(',')}}`;
}
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

function input(): DecisionInput {
  const policy = compilePolicy([
    { rule_id: 'rul-1', rule_version_id: 'rv-1', selector: {}, severity: 'ALLOW', version_created_at: '2026-01-01T00:00:00Z' },
  ]);
  const req = {
    action: 'a.b',
    resource: 'r:1',
    scope: { region: 'eu' },
    parameters: { n: 1.5, s: 'é' },
    context: { f: { value: null, source: 'x' } },
  };
  return {
    id: 'cns-1',
    operation: 'check',
    tenantId: 'tnt-1',
    callerPrincipalId: 'agn-1',
    onBehalfOf: 'hum-1',
    onBehalfOfAuthenticated: true,
    requestedAt: new Date('2026-05-01T10:00:00.123Z'),
    ...req,
    contextHash: contextHash(req),
    evaluation: evaluate(policy, { mode: 'check', ...req }, 0) as CompleteEvaluation,
    ttlSeconds: 120,
    history: [],
    correlation: null,
    stateHash: 'sha256:ab',
    stateRevision: 7,
    issuer: 'arbiter-verdict',
  };
}

describe(buildConsultation.name, () => {
  const { privateJwk, publicJwk } = generateEs256KeyPair();
  const es256 = createEs256Signer(privateJwk, 'tnt-1:2026');
  const signer = { kid: 'tnt-1:2026', epoch: '2026', sign: (c: object) => es256.sign(c) };

  it('hashes the context input as docs/verdicts.md "Hashes and the signed verdict" says', () => {
    const i = input();
    expect(i.contextHash.digest).toBe(
      sha(jcs({ action: i.action, resource: i.resource, scope: i.scope, parameters: i.parameters, context: i.context })),
    );
  });

  it('hashes the whole record except normative_hash and signed_verdict', () => {
    const { record: sut } = buildConsultation(input(), signer);
    const { normative_hash, signed_verdict, ...rest } = sut;
    expect(signed_verdict).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(normative_hash).toBe(sha(jcs(rest)));
    expect(normativeHash(sut)).toBe(normative_hash);
    expect(sut).toMatchObject({ verdict: 'allowed', expired_at: '2026-05-01T10:02:00.123Z', signing_kid: 'tnt-1:2026', state_revision: 7 });
  });

  it('stores the record as the hashed text behind normative_hash and signed_verdict', () => {
    const { record, json } = buildConsultation(input(), signer);
    expect(JSON.parse(json)).toEqual(record);
    const { normative_hash, signed_verdict, ...rest } = record;
    expect(json).toBe(`{"normative_hash":"${normative_hash}","signed_verdict":"${signed_verdict}",${jcs(rest).slice(1)}`);
  });

  it('signs the claims of docs/verdicts.md "Signing keys", verifiable with jose', async () => {
    const { record: sut } = buildConsultation(input(), signer);
    const { header, payload } = await verifyEs256Jws(sut.signed_verdict, publicJwk);
    expect(header).toEqual({ alg: 'ES256', kid: 'tnt-1:2026', typ: 'JWT' });
    expect(payload).toEqual({
      iss: 'arbiter-verdict',
      sub: 'agn-1',
      iat: 1777629600,
      exp: 1777629720,
      jti: 'cns-1',
      tenant_id: 'tnt-1',
      verdict: 'allowed',
      action: 'a.b',
      resource: 'r:1',
      scope: { region: 'eu' },
      parameters: { n: 1.5, s: 'é' },
      on_behalf_of: 'hum-1',
      context_hash: sut.context_hash,
      normative_hash: sut.normative_hash,
      dominating_rule_id: 'rul-1',
      cited_rule_version_ids: ['rv-1'],
    });
  });

  it('refuses a lone surrogate (the request guard refuses U+0000 before this), and hashes the text \\u0000 as text', () => {
    const base = { action: 'a', resource: 'r', scope: {}, context: {} };
    expect(() => contextHash({ ...base, parameters: { s: '\ud800' } })).toThrow(expect.objectContaining({ status: 400 }));
    expect(contextHash({ ...base, parameters: { s: 'literal \\u0000 text' } }).digest).toMatch(/^sha256:/);
  });
});

describe('the shadow member (docs/verdicts.md "Shadow rules")', () => {
  const { privateJwk } = generateEs256KeyPair();
  const es256 = createEs256Signer(privateJwk, 'tnt-1:2026');
  const signer = { kid: 'tnt-1:2026', epoch: '2026', sign: (c: object) => es256.sign(c) };
  const withShadow = (): DecisionInput => {
    const base = input();
    const policy = compilePolicy([
      { rule_id: 'rul-1', rule_version_id: 'rv-1', selector: {}, severity: 'ALLOW', version_created_at: '2026-01-01T00:00:00Z' },
      {
        rule_id: 'rul-2',
        rule_version_id: 'rv-2',
        selector: {},
        severity: 'MANDATORY',
        version_created_at: '2026-01-01T00:00:00Z',
        mode: 'shadow',
      },
    ]);
    return {
      ...base,
      evaluation: evaluate(
        policy,
        {
          mode: 'check',
          action: base.action,
          resource: base.resource,
          scope: base.scope,
          parameters: base.parameters,
          context: base.context,
        },
        0,
      ) as CompleteEvaluation,
    };
  };

  it('is absent when no shadow rule disagrees', () => {
    const { record, json } = buildConsultation(input(), signer);
    expect(record.shadow).toBeUndefined();
    expect(JSON.parse(json)).not.toHaveProperty('shadow');
  });

  it('carries each disagreeing shadow rule, is hashed with the record and keeps RFC 8785 member order', () => {
    const { record, json } = buildConsultation(withShadow(), signer);
    expect(record.shadow).toEqual([{ rule_id: 'rul-2', rule_version_id: 'rv-2', would_be: 'blocked' }]);
    expect(record.verdict).toBe('allowed');
    const { normative_hash, signed_verdict: _s, ...rest } = record;
    expect(normative_hash).toBe(sha(jcs(rest)));
    expect(Object.keys(rest)).toEqual(Object.keys(rest).sort());
    expect(JSON.parse(json)).toEqual(record);
  });
});

describe('the record as built', () => {
  it('lists its members, and those of its trace entries, in RFC 8785 order (the canonical pass then sorts nothing)', () => {
    const { privateJwk } = generateEs256KeyPair();
    const es256 = createEs256Signer(privateJwk, 'tnt-1:2026');
    const { record } = buildConsultation(input(), { kid: 'tnt-1:2026', epoch: '2026', sign: (c: object) => es256.sign(c) });
    const { normative_hash: _n, signed_verdict: _s, ...hashed } = record;
    const keys = Object.keys(hashed);
    expect(keys).toEqual([...keys].sort());
  });
});

describe('hashes of a known consultation', () => {
  // Computed before the hot-path writer moved into libs/canonical: stored records and issued verdicts
  // must keep verifying, so these values never change.
  it('are the pinned context_hash, normative_hash and stored text', () => {
    const policy = compilePolicy([
      { rule_id: 'rul-1', rule_version_id: 'rv-1', selector: {}, severity: 'ALLOW', version_created_at: '2026-01-01T00:00:00Z' },
    ]);
    const req = {
      action: 'a.b',
      resource: 'r:1',
      scope: { region: 'eu' },
      parameters: { n: 1.5, s: 'é', list: [1, { z: null, a: 'x\n' }] },
      context: { f: { value: null, source: 'x' }, g: { value: 'ü😀', source: 'y' } },
    };
    const i: DecisionInput = {
      ...input(),
      ...req,
      contextHash: contextHash(req),
      evaluation: evaluate(policy, { mode: 'check', ...req }, 0) as CompleteEvaluation,
      correlation: { trace: 't-1' },
      approvalId: 'apr-1',
    };
    const { record, json } = buildConsultation(i, { kid: 'tnt-1:2026', epoch: '2026', sign: () => 'h.p.s' });

    expect(record.context_hash).toBe('sha256:a89bd28d694922bcac0c41ce90a1527a2f2f34f912b81962340f49559940df4b');
    expect(record.normative_hash).toBe('sha256:b17bf71638cd7a4c106b133933900897dd48f6a4cd617bb9edfe75ab5ad76ffd');
    expect(sha(json)).toBe('sha256:0e66a7b5a6fce07686e584229dd204be69fff6a417dab5d058f70041c444dd6f');
  });
});

describe('the limits member (docs/verdicts.md "Windows and outcomes")', () => {
  const signer = { kid: 'tnt-1:2026', epoch: '2026', sign: () => 'h.p.s' };
  const entry = { key: '{"principal":"agn-1"}', max: 3, rule_id: 'rul-9', used_after: 2, used_before: 1, window: '1h' };

  it('is absent when the consultation read no window (empty or null), so such records hash as before', () => {
    for (const limits of [undefined, null, []]) {
      const { record, json } = buildConsultation({ ...input(), limits }, signer);
      expect(record.limits).toBeUndefined();
      expect(JSON.parse(json)).not.toHaveProperty('limits');
      expect(json).toBe(buildConsultation(input(), signer).json);
    }
  });

  it('carries each window read, hashed with the record (checked by an independent serialiser), in RFC 8785 member order', () => {
    const { record, json } = buildConsultation({ ...input(), limits: [entry] }, signer);
    expect(record.limits).toEqual([entry]);
    const { normative_hash, signed_verdict: _s, ...rest } = record;
    expect(normative_hash).toBe(sha(jcs(rest)));
    expect(normative_hash).not.toBe(buildConsultation(input(), signer).record.normative_hash);
    expect(Object.keys(rest)).toEqual(Object.keys(rest).sort());
    expect(Object.keys(record.limits![0])).toEqual(Object.keys(entry).sort());
    expect(JSON.parse(json)).toEqual(record);
  });
});

import { makeConsultation, makeKey, signJws, TENANT } from '../../test/fixtures';
import { verifyConsultation } from './consultation';

const now = Date.parse('2026-03-01T12:00:00.000Z');
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });
const jwks = { keys: [key.jwk] };
const failedChecks = (r: { checks: { check: string; status: string; message: string }[] }) => r.checks.filter((c) => c.status === 'fail');

describe(verifyConsultation.name, () => {
  const sut = verifyConsultation;

  it('recomputes both hashes, verifies the signature and matches every claim with the record', async () => {
    const report = await sut(makeConsultation(key, {}, now), { jwks, now });
    expect(report.valid).toBe(true);
    expect(report.checks.map((c) => `${c.check}:${c.status}`)).toEqual([
      'normative_hash:pass',
      'context_hash:pass',
      'signing_kid:pass',
      'signature:pass',
      'expiry:info',
      'claims:pass',
    ]);
  });

  it('verifies a record with commitments, leaves sensitive_values out of the hash, and says which values are erased', async () => {
    const c = (n: number) => ({ $commit: `hmac-sha256:${String(n).repeat(64)}` });
    const record = makeConsultation(
      key,
      { parameters: { card: { number: c(1) }, amount: 5 }, context_snapshot: { email: { value: c(2), source: 'crm' } } },
      now,
    );
    record.sensitive_values = { 'parameters.card.number': 'erased', 'context.email': 'a@b.c' };
    const report = await sut(record, { jwks, now });
    expect(failedChecks(report)).toEqual([]);
    const info = report.checks.find((x) => x.check === 'sensitive_fields');
    expect(info).toMatchObject({
      status: 'info',
      message: expect.stringContaining('parameters.card.number erased, context.email readable'),
    });
    expect(info?.message).not.toContain('a@b.c');
    // The states are the file's word: sensitive_values is outside the hashes, and the message says so.
    expect(info?.message).toContain('as sensitive_values states them: outside the hashes, not verified');
    record.sensitive_values = { 'parameters.card.number': 'unreadable', 'context.email': 'a@b.c' };
    expect((await sut(record, { jwks, now })).checks.find((x) => x.check === 'sensitive_fields')?.message).toContain(
      'parameters.card.number unreadable, context.email readable',
    );
    delete record.sensitive_values;
    expect((await sut(record, { jwks, now })).checks.find((x) => x.check === 'sensitive_fields')?.message).toContain(
      'parameters.card.number committed, context.email committed',
    );
  });

  it('keeps an expired verdict as evidence: expiry is information, not a failure', async () => {
    const report = await sut(makeConsultation(key, {}, now), { jwks, now: now + 86_400_000 });
    expect(report.valid).toBe(true);
    expect(report.checks.find((c) => c.check === 'expiry')?.message).toContain('expired at');
  });

  it('verifies a record read from the archive: `archived: true` beside it is not part of what was hashed', async () => {
    const report = await sut({ ...makeConsultation(key, {}, now), archived: true }, { jwks, now });
    expect(report.valid).toBe(true);
  });

  it('fails a record with another `archived` value: only the answer-only mark is set aside', async () => {
    const report = await sut({ ...makeConsultation(key, {}, now), archived: 'yes' }, { jwks, now });
    expect(failedChecks(report).map((f) => f.check)).toEqual(['normative_hash']);
  });

  it('fails a record changed after the decision, saying normative_hash no longer matches', async () => {
    const record = makeConsultation(key, {}, now);
    record.verdict = 'allowed';
    const failures = failedChecks(await sut(record, { jwks, now }));
    expect(failures.map((f) => f.check)).toEqual(['normative_hash', 'claims.verdict']);
    expect(failures[0].message).toContain('a member of the record was changed after the decision');
    expect(failures[1].message).toBe('the signed verdict is "approval_required", the record\'s verdict is "allowed"');
  });

  it('fails a changed context_snapshot on context_hash too', async () => {
    const record = makeConsultation(key, { context_snapshot: { 'a.b': { value: 1, source: 's' } } }, now);
    (record.context_snapshot as Record<string, { value: number }>)['a.b'].value = 2;
    expect(failedChecks(await sut(record, { jwks, now })).map((f) => f.check)).toEqual(['normative_hash', 'context_hash']);
  });

  it('fails a record re-hashed after a change, on the signed claims', async () => {
    const original = makeConsultation(key, {}, now);
    const forged = makeConsultation(makeKey(key.jwk.kid), { parameters: { transfer: { amount: 1 } } }, now);
    forged.signed_verdict = original.signed_verdict;
    const failures = failedChecks(await sut(forged, { jwks, now }));
    expect(failures.map((f) => f.check)).toEqual(['claims.parameters', 'claims.context_hash', 'claims.normative_hash']);
  });

  it('fails a signature of another key with the verification code', async () => {
    const record = makeConsultation(makeKey(key.jwk.kid), {}, now);
    expect(failedChecks(await sut(record, { jwks, now }))).toEqual([
      { check: 'signature', status: 'fail', message: expect.stringMatching(/^invalid_signature: /) },
    ]);
  });

  it("fails a wrong kid: unknown to the key set, and not the record's signing_kid", async () => {
    const record = makeConsultation(key, {}, now);
    const [, payload] = (record.signed_verdict as string).split('.');
    record.signed_verdict = signJws(JSON.parse(Buffer.from(payload, 'base64url').toString()), {
      ...key,
      jwk: { ...key.jwk, kid: `${TENANT}:2031` },
    });
    const failures = failedChecks(await sut(record, { jwks, now }));
    expect(failures.map((f) => f.check)).toEqual(['signing_kid', 'signature']);
    expect(failures[1].message).toMatch(/^unknown_kid: no key tnt-0123456789abcdef01234567:2031/);
  });

  it('refuses something that is not a record', async () => {
    expect((await sut([1, 2], { jwks })).checks).toEqual([
      { check: 'shape', status: 'fail', message: expect.stringContaining('not a consultation record') },
    ]);
  });
});

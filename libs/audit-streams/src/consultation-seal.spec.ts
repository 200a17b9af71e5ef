import { consultationSealPayload } from './consultation-seal';

describe(consultationSealPayload.name, () => {
  const record = {
    id: 'cns-1',
    tenant_id: 'tnt-1',
    requested_at: '2026-11-27T08:00:00.123Z',
    verdict: 'allowed',
    normative_hash: 'sha256:aa',
    context_hash: 'sha256:bb',
    signing_kid: 'tnt-1:2026',
    action: 'not sealed',
  };

  it('names the six sealed members of the record, decided_at being its requested_at, in a fixed order', () => {
    const payload = consultationSealPayload(record);
    expect(JSON.stringify(payload)).toBe(
      '{"consultation_id":"cns-1","normative_hash":"sha256:aa","context_hash":"sha256:bb","verdict":"allowed","signing_kid":"tnt-1:2026","decided_at":"2026-11-27T08:00:00.123Z"}',
    );
  });

  it('carries nothing else of the record', () => {
    expect(Object.keys(consultationSealPayload(record)).sort()).toEqual([
      'consultation_id',
      'context_hash',
      'decided_at',
      'normative_hash',
      'signing_kid',
      'verdict',
    ]);
  });
});

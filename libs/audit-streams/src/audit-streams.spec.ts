import { AUDIT_STREAM_KINDS, auditStreamAffixes, auditStreamId, auditStreamTenant, isReservedStream } from './audit-streams';

describe(auditStreamTenant.name, () => {
  it('names the tenant of each of the three audit streams', () => {
    expect(auditStreamTenant('arbiter.tnt-1.consultations')).toBe('tnt-1');
    expect(auditStreamTenant('arbiter.tnt-1.approvals')).toBe('tnt-1');
    expect(auditStreamTenant('arbiter.tnt-1.rules')).toBe('tnt-1');
  });

  it('answers null for any other id, under the prefix or not', () => {
    for (const id of [
      'arbiter.tnt-1.other',
      'arbiter..rules',
      'arbiter.tnt-1',
      'Arbiter.tnt-1.rules',
      'x.arbiter.tnt-1.rules',
      'arbiter.tnt-1.rules.x',
    ]) {
      expect(auditStreamTenant(id)).toBeNull();
    }
  });
});

describe(isReservedStream.name, () => {
  it('reserves every id starting with arbiter., in any case, and nothing else', () => {
    expect(isReservedStream('arbiter.tnt-1.consultations')).toBe(true);
    expect(isReservedStream('arbiter.anything')).toBe(true);
    for (const id of ['ARBITER.tnt-1.consultations', 'Arbiter.x', 'aRbItEr.rules']) expect(isReservedStream(id)).toBe(true);
    expect(isReservedStream('arbiter')).toBe(false);
    expect(isReservedStream('arbiterx.tnt-1.rules')).toBe(false);
    expect(isReservedStream('orders')).toBe(false);
  });
});

describe('auditStreamId', () => {
  it('spells the stream the ledger accepts for that tenant and kind', () => {
    for (const kind of AUDIT_STREAM_KINDS) expect(auditStreamTenant(auditStreamId('t-1', kind))).toBe('t-1');
    expect(auditStreamId('t-1', 'consultations')).toBe('arbiter.t-1.consultations');
    expect(auditStreamId('tnt-0123', 'keys')).toBe('arbiter.tnt-0123.keys');
  });

  it('is the prefix, the tenant id and the suffix that SQL splices around a tenant column', () => {
    for (const kind of AUDIT_STREAM_KINDS) {
      const { prefix, suffix } = auditStreamAffixes(kind);
      expect(prefix + 'tnt-9' + suffix).toBe(auditStreamId('tnt-9', kind));
      expect(isReservedStream(prefix + 'tnt-9' + suffix)).toBe(true);
    }
  });
});

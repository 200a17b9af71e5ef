import { mintTenantId } from '@arbiter/auth';
import type { OneShotRow } from '../repositories/approvals.repository';
import { ONE_SHOT_REFRESH_MS, OneShotIndex } from './one-shot-index.service';

function setup(rows: OneShotRow[]) {
  let now = 1_000_000;
  const calls = { list: 0, consume: 0 };
  const repo = {
    listOneShots: async () => {
      calls.list++;
      return rows.slice();
    },
    consumeOneShot: async () => {
      calls.consume++;
      return true;
    },
    releaseOneShot: async () => undefined,
  };
  const sut = new OneShotIndex(repo, () => now);
  return { sut, calls, advance: (ms: number) => (now += ms), at: () => new Date(now) };
}

const TENANT = mintTenantId('tnt-1');

const row = (over: Partial<OneShotRow> = {}): OneShotRow => ({
  id: 'apr-1',
  requester: 'agn-1',
  requester_principal: 'agn-1',
  context_hash: 'sha256:op',
  authorizes_until_ms: 2_000_000,
  rule_versions: { 'rul-1': 'rv-1' },
  ...over,
});

describe(OneShotIndex.name, () => {
  it('finds the approval of this caller for this operation and context while it is valid', async () => {
    const { sut, at } = setup([row()]);
    expect(await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'sha256:op', at())).toEqual({ id: 'apr-1', rule_versions: { 'rul-1': 'rv-1' } });
    expect(await sut.findOneShot(TENANT, 'agn-2', 'agn-2', 'sha256:op', at())).toBeNull();
    expect(await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'sha256:other', at())).toBeNull();
    expect(await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'sha256:op', new Date(2_000_000))).toBeNull();
  });

  it('finds it only for whom its consultation acted: an approval of an operation for nobody is not one for a person, nor the reverse', async () => {
    const { sut, at } = setup([row(), row({ id: 'apr-2', requester_principal: 'hum-1', context_hash: 'sha256:for-hum-1' })]);
    expect(await sut.findOneShot(TENANT, 'agn-1', 'hum-1', 'sha256:op', at())).toBeNull();
    expect(await sut.findOneShot(TENANT, 'agn-1', 'hum-2', 'sha256:for-hum-1', at())).toBeNull();
    expect(await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'sha256:for-hum-1', at())).toBeNull();
    expect((await sut.findOneShot(TENANT, 'agn-1', 'hum-1', 'sha256:for-hum-1', at()))?.id).toBe('apr-2');
  });

  it('reads a tenant at most once per ONE_SHOT_REFRESH_MS, and again after a decision or a use', async () => {
    const { sut, calls, advance, at } = setup([row()]);
    await Promise.all([sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'x', at()), sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'y', at())]);
    await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'z', at());
    expect(calls.list).toBe(1);
    advance(ONE_SHOT_REFRESH_MS);
    await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'z', at());
    expect(calls.list).toBe(2);
    sut.invalidate(TENANT);
    await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'z', at());
    expect(calls.list).toBe(3);
    await sut.consumeOneShot(TENANT, 'apr-1', 'cns-1', at());
    await sut.findOneShot(TENANT, 'agn-1', 'agn-1', 'z', at());
    expect(calls.list).toBe(4);
  });
});

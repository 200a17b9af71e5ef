import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@arbiter/http';
import { eventually } from '@arbiter/testing';
import { RegistryInternalClient, type TenantState } from '@arbiter/internal-api';
import { SnapshotStore } from './snapshot-store.service';
import { registryState } from '../domain/registry-state.fixture';

/** A stand-in registry internal API over real HTTP: its state can be changed without announcing it. */
async function stubRegistry() {
  const stub = {
    state: registryState() as TenantState,
    up: true,
    requests: [] as string[],
    url: '',
    close: async () => undefined as void,
  };
  const server = http.createServer((req, res) => {
    if (!stub.up) return void res.writeHead(503).end();
    stub.requests.push(req.url ?? '');
    const s = stub.state;
    if (req.url === `/internal/v1/tenants/${s.tenant_id}/state`) return void res.end(JSON.stringify(s));
    if (req.url === `/internal/v1/tenants/${s.tenant_id}/state-hash`) {
      return void res.end(JSON.stringify({ tenant_id: s.tenant_id, revision: s.revision, state_hash: s.state_hash, valid_until: null }));
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => new Promise<void>((r) => server.close(() => r()));
  return stub;
}

describe(SnapshotStore.name, () => {
  let stub: Awaited<ReturnType<typeof stubRegistry>>;
  let clock: number;
  let sut: SnapshotStore;

  const storeWith = (extra: Partial<ConstructorParameters<typeof SnapshotStore>[1]> = {}) =>
    new SnapshotStore(new RegistryInternalClient({ baseUrl: stub.url, token: 'token-0123456789abcdef' }), {
      pollMs: 60_000,
      idleMs: 10_000,
      maxStaleMs: 5_000,
      logger: createLogger('test', 'silent'),
      now: () => clock,
      ...extra,
    });

  /** Until the refresh an announcement started is over (on a loaded machine it may take more than a few ms). */
  const refreshed = () =>
    eventually('the announced refresh to end', () => ![...sut['entries'].values()].some((e) => e.refreshing !== null), { intervalMs: 5 });

  beforeEach(async () => {
    stub = await stubRegistry();
    clock = 1_000_000;
    sut = storeWith();
  });
  afterEach(() => stub.close());

  const changed = (revision: number, hash: string) => {
    stub.state = { ...stub.state, revision, state_hash: hash, settings: { ...stub.state.settings, default_verdict: hash } };
  };

  it('loads a tenant once, then serves it from memory without asking the registry', async () => {
    const first = await sut.get('tnt-1');
    for (let i = 0; i < 5; i++) expect(sut.current('tnt-1')).toBe(first);
    expect(await sut.get('tnt-1')).toBe(first);
    expect(stub.requests).toEqual(['/internal/v1/tenants/tnt-1/state']);
  });

  it('refreshes on a change announcement, and ignores announcements it is already past', async () => {
    await sut.get('tnt-1');
    sut.onChange({ tenant_id: 'tnt-1', revision: 3 });
    changed(4, 'sha256:bb');
    sut.onChange({ tenant_id: 'tnt-1', revision: 4 });
    await refreshed();
    expect(sut.current('tnt-1')!.policy.defaultVerdict).toBe('sha256:bb');
    expect(stub.requests.filter((r) => r.endsWith('/state'))).toHaveLength(2);
    sut.onChange({ tenant_id: 'tnt-other', revision: 1 }); // not held: nothing to do
  });

  it('catches an unannounced change with the state-hash poll, and only confirms an unchanged one', async () => {
    await sut.get('tnt-1');
    await sut.poll();
    expect(stub.requests).toEqual(['/internal/v1/tenants/tnt-1/state', '/internal/v1/tenants/tnt-1/state-hash']);
    changed(5, 'sha256:cc');
    await sut.poll();
    expect(sut.current('tnt-1')!.policy.defaultVerdict).toBe('sha256:cc');
  });

  it('keeps the compiled policy when only the revision moved', async () => {
    const first = await sut.get('tnt-1');
    stub.state = { ...stub.state, revision: 9 };
    await sut.poll();
    const next = sut.current('tnt-1')!;
    expect(next.revision).toBe(9);
    expect(next.policy).toBe(first.policy);
  });

  it('serves the last snapshot while the registry is down, until it is too stale (then 503 registry_unavailable)', async () => {
    await sut.get('tnt-1');
    stub.up = false;
    clock += 4_000;
    await sut.poll();
    expect(sut.current('tnt-1')).toBeDefined();
    clock += 2_000;
    expect(sut.current('tnt-1')).toBeUndefined();
    await expect(sut.get('tnt-1')).rejects.toMatchObject({ status: 503, code: 'registry_unavailable' });
    stub.up = true;
    expect((await sut.get('tnt-1')).tenantId).toBe('tnt-1');
  });

  /** The registry's state changes to one the engine refuses (a severity it does not know), announced. */
  const announceBroken = async () => {
    const broken = registryState({ revision: 6, state_hash: 'sha256:broken' });
    broken.rules[0] = { ...broken.rules[0], severity: 'SOMETIMES' as never };
    stub.state = broken;
    sut.onChange({ tenant_id: 'tnt-1', revision: 6 });
    await refreshed();
  };

  it('stops serving the previous snapshot at once when the new state cannot be compiled, and serves again once it can', async () => {
    await sut.get('tnt-1');
    const good = stub.state;
    await announceBroken();
    // Not the tenant's policy any more: refused (503), not served.
    expect(sut.current('tnt-1')).toBeUndefined();
    await expect(sut.get('tnt-1')).rejects.toMatchObject({ status: 503, code: 'policy_unavailable' });
    // A check asks the registry again at most once a poll.
    const asked = stub.requests.length;
    await expect(sut.get('tnt-1')).rejects.toMatchObject({ status: 503 });
    expect(stub.requests.length).toBe(asked);
    clock += 60_000;
    await expect(sut.get('tnt-1')).rejects.toMatchObject({ status: 503 });
    expect(stub.requests.length).toBe(asked + 1);
    // Mended in the registry: served again.
    stub.state = { ...good, revision: 7, state_hash: 'sha256:mended' };
    sut.onChange({ tenant_id: 'tnt-1', revision: 7 });
    await refreshed();
    expect(sut.current('tnt-1')!.stateHash).toBe('sha256:mended');
  });

  it('serves the snapshot held again when the registry goes back to its state (the poll confirms it)', async () => {
    await sut.get('tnt-1');
    const good = stub.state;
    await announceBroken();
    expect(sut.current('tnt-1')).toBeUndefined();
    stub.state = good;
    await sut.poll();
    expect(sut.current('tnt-1')!.stateHash).toBe(good.state_hash);
  });

  it('refuses a tenant whose first state does not compile, asking again at most once a poll', async () => {
    const broken = registryState();
    broken.rules[0] = { ...broken.rules[0], severity: 'SOMETIMES' as never };
    stub.state = broken;
    await expect(sut.get('tnt-1')).rejects.toMatchObject({ status: 503, code: 'policy_unavailable' });
    await expect(sut.get('tnt-1')).rejects.toMatchObject({ status: 503 });
    expect(stub.requests).toEqual(['/internal/v1/tenants/tnt-1/state']);
  });

  it('leaves out a grant no approval here stands behind, and reads the state again each poll until one does (docs/approvals.md "Grants")', async () => {
    let unapproved = new Set(['ovr-grant']);
    sut = storeWith({
      grantsWithoutApproval: async (_tenant, grants) => new Set(grants.map((g) => g.id).filter((id) => unapproved.has(id))),
    });
    const base = registryState();
    const grant = { ...base.overrides[0], id: 'ovr-grant', override_type: 'approval_grant' as const, approval_id: 'apr-1' };
    stub.state = registryState({ overrides: [...base.overrides, grant] });
    const ids = () => sut.current('tnt-1')!.state.overrides.map((o) => o.id);
    const fetches = () => stub.requests.filter((r) => r.endsWith('/state')).length;

    await sut.get('tnt-1');
    expect(ids()).toEqual(base.overrides.map((o) => o.id));
    // The state's hash has not changed, but a decision recorded elsewhere may have: the poll fetches it again.
    await sut.poll();
    expect(fetches()).toBe(2);
    unapproved = new Set();
    await sut.poll();
    expect(ids()).toEqual([...base.overrides.map((o) => o.id), 'ovr-grant']);
    // Nothing held back any more: the poll only confirms the hash.
    await sut.poll();
    expect(fetches()).toBe(3);
  });

  it('answers 404 tenant_not_found for a tenant the registry does not know, and drops idle tenants', async () => {
    await expect(sut.get('tnt-nope')).rejects.toMatchObject({ status: 404, code: 'tenant_not_found' });
    await sut.get('tnt-1');
    clock += 11_000;
    await sut.poll();
    expect(sut.size).toBe(0);
  });
});

import type { TenantState } from '@arbiter/internal-api';

/** A small registry state for the snapshot tests. */
export function registryState(overrides: Partial<TenantState> = {}): TenantState {
  return {
    tenant_id: 'tnt-1',
    tenant_slug: 'acme',
    revision: 3,
    state_hash: 'sha256:aa',
    generated_at: '2026-03-01T00:00:00.000Z',
    valid_until: null,
    settings: {
      scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } },
      default_verdict: 'observe',
      verdict_ttl_seconds: 60,
      max_resolve_rounds: 3,
    },
    scopes: [
      { id: 'scp-all', name: 'all', selector: {} },
      { id: 'scp-eu', name: 'eu', selector: { region: 'eu' } },
    ],
    rules: [
      {
        rule_id: 'rul-a',
        rule_version_id: 'rv-a1',
        scope_id: 'scp-eu',
        version: 1,
        version_created_at: '2026-02-01T00:00:00.000Z',
        directive: 'EU deploys need approval',
        severity: 'REQUIRES_APPROVAL',
        verdict: null,
        applies_to: { actions: ['infra.*'] },
        conditions: [],
        condition_mode: 'all',
        requires: [],
        deciders: ['role-ops'],
        priority: null,
        mode: 'enforce',
      },
    ],
    invariants: [],
    overrides: [
      {
        id: 'ovr-1',
        override_type: 'temporary',
        target_type: 'rule',
        target_ids: ['rul-a'],
        scope_id: 'scp-eu',
        scope_ids: ['scp-eu'],
        applies_to_scope: null,
        conditions: null,
        expires_at: '2026-03-02T00:00:00.000Z',
        approval_id: null,
      },
      {
        id: 'ovr-2',
        override_type: 'permanent',
        target_type: 'invariant',
        target_ids: ['inv-1'],
        scope_id: 'scp-eu',
        scope_ids: ['scp-eu'],
        applies_to_scope: null,
        conditions: null,
        expires_at: null,
        approval_id: null,
      },
    ],
    principals: [{ id: 'hum-1', kind: 'human', active: true, roles: [] }],
    ...overrides,
  };
}

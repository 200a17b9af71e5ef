import spec from '../openapi.json';

type Schema = { required?: string[]; properties?: Record<string, unknown> };

describe('registry OpenAPI document', () => {
  const schemas = spec.components.schemas as Record<string, Schema>;

  it.each([
    'Scope',
    'ScopeDetails',
    'Namespace',
    'Decision',
    'Invariant',
    'Rule',
    'RuleVersion',
    'Override',
    'Reference',
    'Link',
    'Approval',
    'WebhookSubscription',
  ])('%s documents every server-assigned field as required', (name) => {
    expect(schemas[name].required).toEqual(
      expect.arrayContaining(['id', 'tenant_id', 'status', 'version', 'created_at', 'updated_at', 'created_by']),
    );
  });

  it('documents the machine-readable rule fields of docs/verdicts.md on rules and their versions', () => {
    for (const name of ['Rule', 'RuleVersion', 'RuleBody']) {
      expect(Object.keys(schemas[name].properties ?? {})).toEqual(
        expect.arrayContaining([
          'directive',
          'severity',
          'verdict',
          'applies_to',
          'conditions',
          'condition_mode',
          'requires',
          'deciders',
          'priority',
        ]),
      );
    }
  });

  it('documents every registry endpoint this service implements', () => {
    const paths = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const expected = [
      'GET /api/v1/scopes',
      'POST /api/v1/scopes',
      'GET /api/v1/scopes/{scope_id}',
      'PATCH /api/v1/scopes/{scope_id}',
      'GET /api/v1/scopes/{scope_id}/decisions',
      'POST /api/v1/scopes/{scope_id}/decisions',
      'GET /api/v1/scopes/{scope_id}/decisions/{decision_id}',
      'GET /api/v1/scopes/{scope_id}/invariants',
      'POST /api/v1/scopes/{scope_id}/invariants',
      'GET /api/v1/scopes/{scope_id}/invariants/{invariant_id}',
      'DELETE /api/v1/scopes/{scope_id}/invariants/{invariant_id}',
      'GET /api/v1/scopes/{scope_id}/rules',
      'POST /api/v1/scopes/{scope_id}/rules',
      'GET /api/v1/scopes/{scope_id}/rules/{rule_id}',
      'PUT /api/v1/scopes/{scope_id}/rules/{rule_id}',
      'GET /api/v1/scopes/{scope_id}/rules/{rule_id}/versions',
      'PATCH /api/v1/scopes/{scope_id}/rules/{rule_id}/archive',
      'GET /api/v1/scopes/{scope_id}/overrides',
      'POST /api/v1/scopes/{scope_id}/overrides',
      'DELETE /api/v1/scopes/{scope_id}/overrides/{override_id}',
      'POST /api/v1/search',
      'POST /api/v1/check',
      'GET /api/v1/scopes/{scope_id}/resolve',
      'GET /api/v1/scopes/{scope_id}/references',
      'POST /api/v1/scopes/{scope_id}/references',
      'GET /api/v1/references',
      'GET /api/v1/scopes/{scope_id}/events',
      'POST /api/v1/links',
      'GET /api/v1/links',
      'GET /api/v1/tenants',
      'POST /api/v1/tenants',
      'GET /api/v1/scopes/{scope_id}/namespaces',
      'POST /api/v1/scopes/{scope_id}/namespaces',
      'POST /api/v1/scopes/{scope_id}/approvals',
      'GET /api/v1/scopes/{scope_id}/approvals',
      'GET /api/v1/scopes/{scope_id}/approvals/{approval_id}',
      'POST /api/v1/scopes/{scope_id}/approvals/{approval_id}/decide',
      'GET /.well-known/webhook-key',
      'POST /api/v1/scopes/{scope_id}/webhooks',
      'GET /api/v1/scopes/{scope_id}/webhooks',
      'GET /api/v1/webhooks/{subscription_id}',
      'PATCH /api/v1/webhooks/{subscription_id}',
      'DELETE /api/v1/webhooks/{subscription_id}',
    ];
    expect(paths).toEqual(expect.arrayContaining(expected));
  });

  it('documents the webhook key endpoint without authentication', () => {
    const op = (spec.paths as Record<string, Record<string, { security?: unknown[] }>>)['/.well-known/webhook-key'].get;
    expect(op.security ?? []).toEqual([]);
  });
});

import { forwardTarget } from './console-forward';

describe(forwardTarget.name, () => {
  const bases = { registry: 'http://127.0.0.1:3001', verdict: 'http://127.0.0.1:3002/' };

  it('maps the registry forwarder onto /api/v1 and the verdict forwarder onto its root, keeping the query', () => {
    expect(forwardTarget('registry', '/console/api/registry/scopes?limit=5', bases)).toEqual({
      url: 'http://127.0.0.1:3001/api/v1/scopes?limit=5',
    });
    expect(forwardTarget('verdict', '/console/api/verdict/tnt-1/v1/approvals', bases)).toEqual({
      url: 'http://127.0.0.1:3002/tnt-1/v1/approvals',
    });
  });

  it('refuses paths that would leave the public APIs', () => {
    for (const p of ['../internal/v1/introspect', '%2e%2e/internal', 'a/./b', 'a%2fb', 'a\\..\\b', '..']) {
      expect(forwardTarget('registry', `/console/api/registry/${p}`, bases)).toMatchObject({ status: 400 });
    }
    expect(forwardTarget('verdict', '/console/api/verdict/internal/v1/state', bases)).toMatchObject({ status: 400 });
  });

  it('answers 503 when the registry knows no verdict service', () => {
    expect(forwardTarget('verdict', '/console/api/verdict/x', { ...bases, verdict: undefined })).toMatchObject({ status: 503 });
  });
});

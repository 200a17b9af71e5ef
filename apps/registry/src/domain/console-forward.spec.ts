import { readFileSync } from 'node:fs';
import path from 'node:path';
import { forwardTarget } from './console-forward';

/** The verdict service's published API description: every path in it must pass the forwarder. */
const verdictOpenApi = JSON.parse(readFileSync(path.join(__dirname, '../../../verdict/openapi.json'), 'utf8')) as { paths: object };

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

  it("passes every path of the verdict service's OpenAPI document, its parameters filled in", () => {
    const paths = Object.keys(verdictOpenApi.paths);
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      const filled = p.slice(1).replace(/\{[a-z_]+\}/g, 'tnt-1a2b');
      expect(forwardTarget('verdict', `/console/api/verdict/${filled}?limit=5`, bases)).toEqual({
        url: `http://127.0.0.1:3002/${filled}?limit=5`,
      });
    }
  });

  it.each([
    ['metrics', 404],
    ['readyz', 404],
    ['livez', 404],
    ['docs', 404],
    ['docs/', 404],
    ['docs/v1/x', 404],
    ['docs/swagger-ui.css', 404],
    ['openapi.json', 404],
    ['Metrics', 404],
    ['', 404],
    ['v1', 404],
    ['v1/', 404],
    ['v1//whoami', 404],
    ['tnt-1/v1', 404],
    ['tnt-1/v2/approvals', 404],
    ['a/b/v1/approvals', 404],
    ['tnt%2D1/v1/approvals', 404],
    ['metrics/v1/x', 404],
    ['livez/v1/x', 404],
    ['internal/v1/state', 400],
    ['Internal/v1/state', 400],
    ['tnt-1/../metrics', 400],
  ])('refuses the verdict path %p (%p)', (p, status) => {
    expect(forwardTarget('verdict', `/console/api/verdict/${p}`, bases)).toMatchObject({ status });
  });

  it.each(['v1/whoami', 'v1/tenants/acme/jwks', 'tnt-1/v1/approvals?status=pending', 'ten_1/v1/consultations/csl-1/evidence'])(
    'forwards the verdict path %p',
    (p) => {
      expect(forwardTarget('verdict', `/console/api/verdict/${p}`, bases)).toEqual({ url: `http://127.0.0.1:3002/${p}` });
    },
  );

  it('answers 503 when the registry knows no verdict service', () => {
    expect(forwardTarget('verdict', '/console/api/verdict/x', { ...bases, verdict: undefined })).toMatchObject({ status: 503 });
  });
});

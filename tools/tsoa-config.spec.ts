import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

/**
 * Every public API takes a JSON body as it was sent: tsoa's body coercion ("false" as false, null as
 * false, "12" as 12) stays off, so a member of the wrong type is the documented 400, never another value
 * (docs/verdicts.md "Errors", docs/ledger-formats.md "Errors", docs/registry.md "Errors").
 */
describe('public tsoa configurations', () => {
  it.each(['registry', 'verdict', 'ledger'])('%s never coerces a body member to another type', (app) => {
    const config = JSON.parse(readFileSync(path.join(root, 'apps', app, 'tsoa.json'), 'utf8')) as { routes?: { bodyCoercion?: unknown } };
    expect(config.routes?.bodyCoercion).toBe(false);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { registryConfigSchema } from '@arbiter/registry/config';
import { verdictConfigSchema } from '@arbiter/verdict/config';
import { ledgerConfigSchema } from '@arbiter/ledger/config';
import { workerConfigSchema } from '@arbiter/worker/config';

/** The README's configuration table must name every variable a process reads. */
describe('README configuration table', () => {
  const readme = readFileSync(path.resolve(__dirname, '..', 'README.md'), 'utf8');
  const schemas = { registry: registryConfigSchema, verdict: verdictConfigSchema, ledger: ledgerConfigSchema, worker: workerConfigSchema };
  it.each(Object.entries(schemas))('documents every variable %s reads', (_app, schema) => {
    const missing = Object.keys(schema).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');
const redocly = path.join(root, 'node_modules/.bin/redocly');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
}

/** `redocly lint` with the repository's redocly.yaml; a failing lint exits 1 and still prints its report. */
async function lint(...args: string[]): Promise<LintReport> {
  const out = await run(redocly, ['lint', ...args, '--format', 'json', '--config', path.join(root, 'redocly.yaml')], {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 32 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return JSON.parse(out.stdout) as LintReport;
}

/** The three public documents lint clean under redocly.yaml (docs/development.md "The API contract"). */
describe('redocly lint', () => {
  it.each(['registry', 'verdict', 'ledger'])(
    'finds no error and no warning in the %s document',
    async (api) => {
      const report = await lint(api);
      expect(report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    120_000,
  );

  it('fails a document that drops a summary, a parameter description or an example', async () => {
    const doc = JSON.parse(await readFile(path.join(root, 'apps/ledger/openapi.json'), 'utf8'));
    const op = doc.paths['/streams/{stream_id}/facts'].get;
    delete op.summary;
    delete op.parameters.find((p: { name: string }) => p.name === 'limit').description;
    delete op.responses['200'].content['application/json'].example;
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'lint-')), 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const report = await lint(file);
    expect(report.problems.map((p) => p.ruleId).sort()).toEqual([
      'operation-summary',
      'rule/media-type-example',
      'rule/parameter-description',
    ]);
  }, 120_000);
});

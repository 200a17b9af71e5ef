import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runShellBlock } from './runner';
import { extractBlocks, fillUrls, planBlocks } from './samples';

const doc = [
  '# A doc',
  '',
  '```sh',
  'echo one',
  '```',
  '',
  '```sh illustration',
  'kubectl apply -k k8s',
  '```',
  '',
  '1. In a list:',
  '',
  '   ```json',
  '   {"a": 1}',
  '   ```',
  '',
  '```ts file=examples/x.ts',
  'const a = 1;',
  '```',
  '',
  '````text',
  '```sh',
  'not a block of its own',
  '```',
  '````',
].join('\n');

describe('extractBlocks', () => {
  it('reads each fence with its line, language, marks and text (list items and longer fences too)', () => {
    expect(extractBlocks('d.md', doc)).toEqual([
      { file: 'd.md', line: 3, lang: 'sh', marks: [], text: 'echo one\n' },
      { file: 'd.md', line: 7, lang: 'sh', marks: ['illustration'], text: 'kubectl apply -k k8s\n' },
      { file: 'd.md', line: 13, lang: 'json', marks: [], text: '{"a": 1}\n' },
      { file: 'd.md', line: 17, lang: 'ts', marks: ['file=examples/x.ts'], text: 'const a = 1;\n' },
      { file: 'd.md', line: 21, lang: 'text', marks: [], text: '```sh\nnot a block of its own\n```\n' },
    ]);
  });
});

describe('planBlocks', () => {
  it('runs unmarked shell blocks, includes file= blocks, shows data and illustrations', () => {
    const { steps, problems } = planBlocks(extractBlocks('d.md', doc));
    expect(problems).toEqual([]);
    expect(steps.map((s) => [s.kind, s.block.line])).toEqual([
      ['run', 3],
      ['include', 17],
    ]);
  });

  it.each([
    ['a block without a language', '```\nnpm start\n```', /d\.md:1: a fenced block without a language/],
    ['an unknown language', '```pwsh\nGet-Item\n```', /d\.md:1: unknown language "pwsh"/],
    [
      'a TypeScript fragment neither included nor marked',
      '```ts\nawait verdict.check(op);\n```',
      /d\.md:1: a ts sample runs as a complete file under examples\//,
    ],
    ['an unknown mark (a typo of illustration)', '```sh ilustration\nrm -rf /\n```', /d\.md:1: unknown mark "ilustration"/],
    [
      'an included file outside examples/',
      '```ts file=../secrets.ts\nx\n```',
      /d\.md:1: file=\.\.\/secrets\.ts: an included file lives under examples\//,
    ],
  ])('refuses %s', (_what, markdown, problem) => {
    const { steps, problems } = planBlocks(extractBlocks('d.md', markdown));
    expect(steps).toEqual([]);
    expect(problems).toEqual([expect.stringMatching(problem)]);
  });
});

describe('placeholders', () => {
  it("replaces npm start's default URLs with the stack's", () => {
    const urls = { registry: 'http://127.0.0.1:40001', verdict: 'http://127.0.0.1:40002/', ledger: 'http://127.0.0.1:40003' };
    expect(fillUrls('curl http://127.0.0.1:3001/api/v1 http://127.0.0.1:3002/acme/v1/check $L http://127.0.0.1:3003', urls)).toBe(
      'curl http://127.0.0.1:40001/api/v1 http://127.0.0.1:40002/acme/v1/check $L http://127.0.0.1:40003',
    );
  });
});

describe('runShellBlock', () => {
  let cwd: string;
  beforeAll(() => (cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-block-test-'))));
  afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH ?? '' };

  it('passes the variables a block makes to the next one, as one shell would: exported or not, arrays too', async () => {
    const first = await runShellBlock('SCOPE=scp-1\nexport KEY=ak-1\nH=(-H "a b")\necho "made $SCOPE"', { cwd, env });
    expect(first).toMatchObject({ code: 0, stdout: 'made scp-1\n' });
    const second = await runShellBlock('echo "again $SCOPE ${#H[@]} ${H[1]}"; bash -c \'echo "child sees ${SCOPE:-nothing} and $KEY"\'', {
      cwd,
      env,
      state: first.state,
    });
    expect(second.stdout).toBe('again scp-1 2 a b\nchild sees nothing and ak-1\n');
  });

  it.each([
    ['a failing command', 'echo before\nfalse\necho after'],
    ['a failing stage of a pipeline', 'false | cat\necho after'],
    ['a failing command substitution', 'ID=$(false | cat)\necho "after $ID"'],
    ['an unset variable', 'echo "$NOT_SET_ANYWHERE"'],
  ])('fails on %s, and stops there', async (_what, text) => {
    const run = await runShellBlock(text, { cwd, env });
    expect(run.code).not.toBe(0);
    expect(run.stdout).not.toContain('after');
    expect(run.state).toBeUndefined();
  });

  it('names the failing command and its line in the doc', async () => {
    const run = await runShellBlock('echo one\nID=$(false | cat)\necho two', { cwd, env, firstLine: 41 });
    expect(run.stdout).toBe('one\n');
    expect(run.stderr).toContain('doc sample: line 42 failed (exit 1): ID=$(false | cat)');
  });

  it('kills a block that does not finish', async () => {
    const run = await runShellBlock('sleep 30', { cwd, env, timeoutMs: 200 });
    expect(run).toMatchObject({ timedOut: true });
  });
});

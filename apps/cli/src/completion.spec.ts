import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { completionTree, SHELLS, type CompletionNode } from './completion';
import { processIo, type Io } from './io';
import { buildProgram, runCli } from './program';

const exec = promisify(execFile);

function has(shell: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function script(shell: string): Promise<string> {
  const out: string[] = [];
  const io: Io = { ...processIo(), stdout: (s) => out.push(s), stderr: () => undefined, env: {} };
  expect(await runCli(['completion', shell], io)).toBe(0);
  return out.join('');
}

const tree: CompletionNode[] = completionTree(buildProgram(processIo(), () => undefined));
const node = (p: string) => tree.find((n) => n.path === p) as CompletionNode;
/** What a command offers after it: its subcommands, its argument's choices, every spelling of its options. */
const offered = (n: CompletionNode) =>
  [...n.subcommands.map((s) => s.name), ...n.argumentChoices, ...n.options.flatMap((o) => o.flags)].sort();
const withSubcommands = tree.filter((n) => n.subcommands.length);

/**
 * Each probe is the words typed so far (the last one being completed) and what the shell must offer.
 * The tree itself gives the expectations, so a new command is probed without editing this test.
 */
const probes: [string[], string[]][] = [
  ...tree.map((n): [string[], string[]] => [[...n.path.split(' '), ''], offered(n)]),
  [['arbiter', 'api-k'], ['api-keys']],
  [['arbiter', 'principals', 'cr'], ['create']],
  [
    ['arbiter', 'keys', 'rotate', 'verdict', '--mode', ''],
    ['emergency', 'scheduled'],
  ],
  [
    ['arbiter', '--json', 'principals', 'create', '--kind', ''],
    ['agent', 'human'],
  ],
  [['arbiter', 'completion', 'z'], ['zsh']],
  // The value of an option is skipped: `plan` is still the command after `-f file.yaml --last 5`.
  [['arbiter', 'rules', 'plan', '-f', 'rules.yaml', '--last', '5', '--no-s'], ['--no-simulate']],
  [['arbiter', 'api-keys', 'create', '--principal', 'list', '--ex'], ['--expires-at']],
];

describe('arbiter completion', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-completion-'));
    for (const shell of SHELLS) await writeFile(path.join(dir, `arbiter.${shell}`), await script(shell));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('walks every command of the program, the admin commands among them', () => {
    const paths = tree.map((n) => n.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'arbiter tenants create',
        'arbiter principals deactivate',
        'arbiter api-keys revoke',
        'arbiter keys rotate',
        'arbiter completion',
      ]),
    );
    expect(node('arbiter principals update').options.flatMap((o) => o.flags)).toEqual(
      expect.arrayContaining(['--name', '--role', '--no-roles', '--json', '-q', '--url']),
    );
    expect(node('arbiter keys rotate').options.find((o) => o.flags.includes('--mode'))).toMatchObject({
      takesValue: true,
      choices: ['scheduled', 'emergency'],
    });
  });

  it.each(SHELLS)('the %s script names every command and every option of the tree', async (shell) => {
    const text = await script(shell);
    for (const n of tree) {
      for (const s of n.subcommands) expect(text).toContain(shell === 'fish' ? `-a '${s.name}'` : `${n.path} ${s.name}`);
      for (const o of n.options)
        for (const f of o.flags)
          expect(text).toContain(shell === 'fish' ? (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`) : f);
    }
  });

  it('refuses a shell it does not know (exit 2)', async () => {
    const err: string[] = [];
    const io: Io = { ...processIo(), stdout: () => undefined, stderr: (s) => err.push(s), env: {} };
    expect(await runCli(['completion', 'powershell'], io)).toBe(2);
    expect(err.join('')).toContain('Allowed choices are bash, zsh, fish');
  });

  /** Runs every probe in one shell process; each answer is one line of sorted, space-separated words. */
  const answers = async (shell: string, body: string) =>
    (await exec(shell, ['-c', body], { cwd: dir, maxBuffer: 1 << 24, env: { ...process.env, LC_ALL: 'C' } })).stdout.trimEnd().split('\n');
  const expected = probes.map(([, want]) => [...want].sort().join(' '));
  const words = (typed: string[], quote: (s: string) => string) => typed.map(quote).join(' ');

  it('bash: completes every command path, option choices and partial words (complete -F, COMP_WORDS)', async () => {
    const q = (s: string) => `'${s}'`;
    const body = [
      `source ${q(path.join(dir, 'arbiter.bash'))}`,
      `complete -p arbiter >/dev/null || exit 3`,
      ...probes.map(
        ([typed]) =>
          `COMP_WORDS=(${words(typed, q)}); COMP_CWORD=${typed.length - 1}; COMPREPLY=(); _arbiter; printf '%s\\n' "$(printf '%s\\n' "\${COMPREPLY[@]}" | sort | tr '\\n' ' ' | sed 's/ $//')"`,
      ),
    ].join('\n');
    expect(await answers('bash', body)).toEqual(expected);
    expect(withSubcommands.length).toBeGreaterThan(5);
  });

  (has('zsh') ? it : it.skip)('zsh: the same answers through the completion function (compadd, _describe and _files stubbed)', async () => {
    const q = (s: string) => `'${s}'`;
    const body = [
      // The builtins of the completion system, reduced to printing what they are given.
      'compdef() { :; }',
      'reply=()',
      'compadd() { [[ "$1" == -- ]] && shift; reply+=("$@"); }',
      '_describe() { local entry; for entry in "${(@P)${@[-1]}}"; do reply+=("${entry%%:*}"); done; }',
      '_files() { :; }',
      `source ${q(path.join(dir, 'arbiter.zsh'))}`,
      ...probes.map(
        ([typed]) =>
          `words=(${words(typed, q)}); CURRENT=${typed.length}; PREFIX=${q(typed.at(-1) as string)}; reply=(); _arbiter; m=(\${(M)reply:#\${PREFIX}*}); m=(\${(o)m}); print -r -- "\${(j: :)m}"`,
      ),
    ].join('\n');
    const got = await answers('zsh', body);
    // zsh offers options only once a dash is typed (or when nothing else follows); compare like for like.
    const zshExpected = probes.map(([typed, want]) => {
      const n = tree.find((x) => x.path === typed.slice(0, -1).join(' '));
      const hidesOptions = n && typed.at(-1) === '' && (n.subcommands.length || n.argumentChoices.length);
      return [...want]
        .filter((w) => !(hidesOptions && w.startsWith('-')))
        .sort()
        .join(' ');
    });
    expect(got).toEqual(zshExpected);
  });

  (has('fish') ? it : it.skip)('fish: the same answers from `complete -C`', async () => {
    const body = [
      `source '${path.join(dir, 'arbiter.fish')}'`,
      ...probes.map(([typed]) => `echo (complete -C '${typed.join(' ')}' | cut -f1 | sort)`),
    ].join('\n');
    const got = await answers('fish', body);
    // fish offers options only once a dash is typed, and file names where any argument may follow (left out here).
    const known = new Set([...tree.flatMap(offered), ...tree.flatMap((n) => n.options.flatMap((o) => o.choices))]);
    expect(
      got.map((line) =>
        line
          .split(' ')
          .filter((w) => known.has(w))
          .join(' '),
      ),
    ).toEqual(
      probes.map(([typed, want]) =>
        want
          .filter((w) => typed.at(-1) !== '' || !w.startsWith('-'))
          .sort()
          .join(' '),
      ),
    );
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/**
 * The install step of docs/cli.md "Running it", `npm install -g ./apps/cli`, links the CLI's launcher,
 * apps/cli/bin/arbiter.js, into npm's global bin (npm also links it into the clone's node_modules/.bin,
 * because the root package depends on the @arbiter/cli workspace); the launcher builds the bundled CLI
 * on first use, and again when a file it was made of changed. No doc tells anyone to run `npx arbiter` outside the clone.
 */
describe('the arbiter bin', () => {
  it('is linked by npm install to the committed launcher', () => {
    expect(realpathSync(path.join(ROOT, 'node_modules/.bin/arbiter'))).toBe(path.join(ROOT, 'apps/cli/bin/arbiter.js'));
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies['@arbiter/cli']).toBeDefined();
  });

  it('is put on the PATH by the documented install step, and runs from a folder outside the clone', () => {
    // npm's global folder moved to a temporary prefix: the step as documented, without touching the machine's.
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'arbiter-global-'));
    try {
      execFileSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', './apps/cli'], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      const installed = path.join(prefix, 'bin', 'arbiter');
      expect(realpathSync(installed)).toBe(path.join(ROOT, 'apps/cli/bin/arbiter.js'));
      const help = execFileSync(installed, ['--help'], {
        cwd: prefix,
        encoding: 'utf8',
        env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
      });
      expect(help).toContain('Usage: arbiter');
      expect(help).toContain('quickstart');
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });

  it("is never run as `npx arbiter` in a doc's commands, an example or a code comment", () => {
    // Commands: the fenced blocks of Markdown, every line of other files. Prose may warn against it.
    const files = execFileSync('git', ['ls-files', '*.md', '*.yaml', '*.ts', '*.mjs', '*.js'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && f !== 'tools/cli-bin.spec.ts');
    const offending = files.flatMap((file) => {
      let fenced = false;
      return readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((text, i) => {
          if (file.endsWith('.md') && /^\s*```/.test(text)) fenced = !fenced;
          const command = !file.endsWith('.md') || fenced;
          return command && /npx arbiter/.test(text) && !/clone|[Nn]ever|stranger/.test(text) ? [`${file}:${i + 1}: ${text}`] : [];
        });
    });
    expect(offending).toEqual([]);
  });

  /** A copy of the launcher whose bundle is `dir`/arbiter.js: the builds write there, not into the checkout. */
  const launcherIn = (dir: string): string => {
    const launcher = readFileSync(path.join(ROOT, 'apps/cli/bin/arbiter.js'), 'utf8')
      .replace("path.join(__dirname, '..', 'dist', 'arbiter.js')", JSON.stringify(path.join(dir, 'arbiter.js')))
      .replace("path.join(__dirname, '..', 'scripts', 'build.mjs')", JSON.stringify(path.join(ROOT, 'apps/cli/scripts/build.mjs')))
      .replace("require('../scripts/stamp.cjs')", `require(${JSON.stringify(path.join(ROOT, 'apps/cli/scripts/stamp.cjs'))})`);
    expect(launcher).toContain(JSON.stringify(path.join(dir, 'arbiter.js')));
    expect(launcher).toContain(JSON.stringify(path.join(ROOT, 'apps/cli/scripts/build.mjs')));
    expect(launcher).toContain(JSON.stringify(path.join(ROOT, 'apps/cli/scripts/stamp.cjs')));
    const file = path.join(dir, 'launcher.js');
    writeFileSync(file, launcher);
    return file;
  };
  /** Runs the launcher: its output, and whether it said it built the CLI. */
  const run = (file: string, ...args: string[]): { stdout: string; built: boolean } => {
    const r = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    return { stdout: r.stdout.trim(), built: r.stderr.includes('building the CLI') };
  };
  const version = (): string => JSON.parse(readFileSync(path.join(ROOT, 'apps/cli/package.json'), 'utf8')).version;

  it('builds the CLI when its bundle is missing, then runs it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-bin-'));
    try {
      const file = launcherIn(dir);
      expect(run(file, '--version')).toEqual({ stdout: version(), built: true });
      // Second run: the bundle is there and its inputs unchanged, nothing is built.
      expect(run(file, '--version')).toEqual({ stdout: version(), built: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds it again when a file it was made of changed since (a pull), and only then', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-bin-'));
    try {
      const file = launcherIn(dir);
      expect(run(file, '--version').built).toBe(true);
      const stampFile = path.join(dir, 'arbiter.js.stamp.json');
      const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { inputs: [string, number, number][] };
      const named = stamp.inputs.map(([input]) => path.relative(ROOT, input));
      expect(named).toEqual(
        expect.arrayContaining(['apps/cli/src/arbiter.ts', 'libs/client/src/verify/ledger-key.ts', 'apps/cli/scripts/build.mjs']),
      );
      expect(named.some((input) => input.startsWith('node_modules/commander/'))).toBe(true);
      // A stand-in for one of its files, named by the stamp as the real ones are: untouched, nothing is built.
      const standIn = path.join(dir, 'stand-in.ts');
      writeFileSync(standIn, 'export const a = 1;');
      const st = statSync(standIn);
      writeFileSync(stampFile, JSON.stringify({ inputs: [...stamp.inputs, [standIn, st.size, st.mtimeMs]] }));
      expect(run(file, '--version')).toEqual({ stdout: version(), built: false });
      // Changed: built again, and the new stamp names what the new build read.
      writeFileSync(standIn, 'export const a = 22;');
      expect(run(file, '--version')).toEqual({ stdout: version(), built: true });
      expect(readFileSync(stampFile, 'utf8')).not.toContain(standIn);
      // A bundle without a stamp (built before stamps were written) is built again too.
      rmSync(stampFile);
      expect(run(file, '--version').built).toBe(true);
      expect(run(file, '--version').built).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

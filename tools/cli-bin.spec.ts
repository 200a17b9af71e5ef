import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/**
 * The install step of docs/cli.md "Running it", `npm install -g ./apps/cli`, links the CLI's launcher,
 * apps/cli/bin/arbiter.js, into npm's global bin (npm also links it into the clone's node_modules/.bin,
 * because the root package depends on the @arbiter/cli workspace); the launcher builds the bundled CLI
 * on first use when it is missing. No doc tells anyone to run `npx arbiter` outside the clone.
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

  it('builds the CLI when its bundle is missing, then runs it', () => {
    // A copy of the launcher beside an empty dist: the build writes there, not into the checkout.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-bin-'));
    try {
      const launcher = readFileSync(path.join(ROOT, 'apps/cli/bin/arbiter.js'), 'utf8')
        .replace("path.join(__dirname, '..', 'dist', 'arbiter.js')", JSON.stringify(path.join(dir, 'arbiter.js')))
        .replace("path.join(__dirname, '..', 'scripts', 'build.mjs')", JSON.stringify(path.join(ROOT, 'apps/cli/scripts/build.mjs')));
      expect(launcher).toContain(JSON.stringify(path.join(dir, 'arbiter.js')));
      expect(launcher).toContain(JSON.stringify(path.join(ROOT, 'apps/cli/scripts/build.mjs')));
      const file = path.join(dir, 'launcher.js');
      writeFileSync(file, launcher);
      const version = execFileSync(process.execPath, [file, '--version'], { encoding: 'utf8' }).trim();
      expect(version).toBe(JSON.parse(readFileSync(path.join(ROOT, 'apps/cli/package.json'), 'utf8')).version);
      // Second run: the bundle is there, nothing is built.
      expect(execFileSync(process.execPath, [file, '--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()).toBe(
        version,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

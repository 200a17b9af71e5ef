import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/**
 * `npx arbiter …` works right after `npm install` (docs/cli.md): npm links the CLI's launcher,
 * apps/cli/bin/arbiter.js, because the root package depends on the @arbiter/cli workspace; the
 * launcher builds the bundled CLI on first use when it is missing.
 */
describe('the arbiter bin', () => {
  it('is linked by npm install to the committed launcher', () => {
    expect(realpathSync(path.join(ROOT, 'node_modules/.bin/arbiter'))).toBe(path.join(ROOT, 'apps/cli/bin/arbiter.js'));
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies['@arbiter/cli']).toBeDefined();
  });

  it('builds the CLI when its bundle is missing, then runs it', () => {
    // A copy of the launcher beside an empty dist: the build writes there, not into the checkout.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-bin-'));
    try {
      const launcher = readFileSync(path.join(ROOT, 'apps/cli/bin/arbiter.js'), 'utf8').replace("path.join(__dirname, '..', 'dist', 'arbiter.js')", JSON.stringify(path.join(dir, 'arbiter.js'))).replace("path.join(__dirname, '..', 'scripts', 'build.mjs')", JSON.stringify(path.join(ROOT, 'apps/cli/scripts/build.mjs')));
      expect(launcher).toContain(JSON.stringify(path.join(dir, 'arbiter.js')));
      expect(launcher).toContain(JSON.stringify(path.join(ROOT, 'apps/cli/scripts/build.mjs')));
      const file = path.join(dir, 'launcher.js');
      writeFileSync(file, launcher);
      const version = execFileSync(process.execPath, [file, '--version'], { encoding: 'utf8' }).trim();
      expect(version).toBe(JSON.parse(readFileSync(path.join(ROOT, 'apps/cli/package.json'), 'utf8')).version);
      // Second run: the bundle is there, nothing is built.
      expect(execFileSync(process.execPath, [file, '--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()).toBe(version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

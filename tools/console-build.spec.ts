import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/**
 * `node apps/console/build.mjs --if-stale` (before `npm start` and `npm test`) rebuilds when anything the bundle
 * read has changed: its own sources, and the libraries it imports (the browser verifier in libs/client). Run in
 * a child process: build.mjs is an ES module.
 */
describe('the console build', () => {
  it('names every file its bundle read, libraries included, and rebuilds when one of them changes', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-console-build-'));
    try {
      const script = `
        import fs from 'node:fs';
        import path from 'node:path';
        import { buildConsole, inputsHash, CONSOLE_DIR } from './apps/console/build.mjs';
        const out = ${JSON.stringify(path.join(dir, 'dist'))};
        const extra = ${JSON.stringify(path.join(dir, 'stand-in.ts'))};
        const stampFile = path.join(out, 'build-stamp.json');
        const marker = path.join(out, 'marker');
        // Whether a build with --if-stale replaced the folder (a rebuild moves a new folder into place).
        const rebuilds = async () => {
          fs.writeFileSync(marker, '');
          await buildConsole({ outDir: out, ifStale: true, quiet: true });
          return !fs.existsSync(marker);
        };
        await buildConsole({ outDir: out, quiet: true });
        const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
        const unchanged = await rebuilds();
        // A stand-in for a library file: named by the stamp as the build's metafile names the real ones.
        fs.writeFileSync(extra, 'export const a = 1;');
        const inputs = [...stamp.inputs, path.relative(CONSOLE_DIR, extra)];
        fs.writeFileSync(stampFile, JSON.stringify({ sources: inputsHash(inputs), inputs }));
        const named = await rebuilds();
        fs.writeFileSync(extra, 'export const a = 2;');
        const changed = await rebuilds();
        process.stdout.write(JSON.stringify({ inputs: stamp.inputs, unchanged, named, changed }));
      `;
      const report = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
      expect(report.inputs).toEqual(
        expect.arrayContaining(['src/main.tsx', 'src/console.css', 'src/index.html', '../../libs/client/src/verify/ledger-key.ts']),
      );
      expect({ unchanged: report.unchanged, named: report.named, changed: report.changed }).toEqual({
        unchanged: false,
        named: false,
        changed: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

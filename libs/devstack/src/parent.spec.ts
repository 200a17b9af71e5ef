import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { watchParent } from './parent';

describe(watchParent.name, () => {
  it('calls back once when the parent changes, and not before', async () => {
    let ppid = 100;
    let calls = 0;
    const stop = watchParent(() => calls++, { intervalMs: 5, ppid: () => ppid });
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toBe(0);
    ppid = 1;
    await new Promise((r) => setTimeout(r, 30));
    ppid = 200;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toBe(1);
    stop();
  });

  it('notices a real parent that exits: a grandchild watching its parent hears of it when the parent is killed', async () => {
    // This module as the bundle runs it (CommonJS), for a plain node child.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'watch-parent-'));
    const bundle = path.join(dir, 'parent.cjs');
    buildSync({ entryPoints: [path.join(__dirname, 'parent.ts')], outfile: bundle, format: 'cjs', platform: 'node', bundle: true });
    // parent: a node process that spawns the watcher and then waits; the watcher prints when its parent is gone.
    const watcher = `
      const { watchParent } = require(${JSON.stringify(bundle)});
      watchParent(() => { process.stdout.write('gone\\n'); process.exit(0); }, { intervalMs: 20 });
      process.stdout.write('watching\\n');
      setInterval(() => undefined, 1000);`;
    const parentScript = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', ${JSON.stringify(watcher)}], { stdio: ['ignore', 'inherit', 'inherit'] });
      process.stdout.write('pid ' + child.pid + '\\n');
      setInterval(() => undefined, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (out.includes(text) ? resolve() : undefined);
        parent.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          check();
        });
        check();
        setTimeout(() => reject(new Error(`no "${text}" in: ${out}`)), 20_000).unref();
      });
    try {
      await seen('watching');
      // SIGKILL: the parent passes nothing on, as npm does not with TERM.
      parent.kill('SIGKILL');
      await seen('gone');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

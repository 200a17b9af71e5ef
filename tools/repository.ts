// The repository as the tree checks read it (tools/citations.spec.ts, tools/tracker-numbers.spec.ts,
// tools/architecture.spec.ts): its files and their text.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(__dirname, '..');

/** Tracked files that exist on disk, repository-relative; with `untracked`, also new files git does not ignore. */
export function repositoryFiles(opts: { untracked?: boolean } = {}): string[] {
  const args = ['ls-files', '-z', ...(opts.untracked ? ['--cached', '--others', '--exclude-standard'] : [])];
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(path.join(root, f)));
}

/** A file's text; null when it is binary. */
export function readText(file: string): string | null {
  const buf = readFileSync(path.join(root, file));
  return buf.includes(0) ? null : buf.toString('utf8');
}

import { chmod, lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InputTooLargeError, readFileCapped, writeFileAtomic } from './files';

describe(writeFileAtomic.name, () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-files-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('replaces a symbolic link planted at the target instead of writing through it', async () => {
    const victim = path.join(dir, 'victim.txt');
    await writeFile(victim, 'precious\n');
    const out = path.join(dir, 'pack.json');
    await symlink(victim, out);
    await writeFileAtomic(out, '{"pack": 1}\n');
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((await lstat(out)).isSymbolicLink()).toBe(false);
    expect(await readFile(out, 'utf8')).toBe('{"pack": 1}\n');
  });

  it('writes a secret 0600 whatever the umask, even over a world-readable file', async () => {
    const out = path.join(dir, 'agent.key');
    await writeFile(out, 'old\n');
    await chmod(out, 0o644);
    const umask = process.umask(0);
    try {
      await writeFileAtomic(out, 'ak-1\n', { secret: true });
    } finally {
      process.umask(umask);
    }
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect(await readFile(out, 'utf8')).toBe('ak-1\n');
  });

  it('keeps the mode of a file it replaces, and leaves no temporary file behind', async () => {
    const out = path.join(dir, 'rules.yaml');
    await writeFile(out, 'a\n');
    await chmod(out, 0o640);
    await writeFileAtomic(out, 'b\n');
    expect((await stat(out)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['rules.yaml']);
  });

  it('refuses a directory and cleans up after a failure', async () => {
    await expect(writeFileAtomic(dir, 'x')).rejects.toThrow(/is a directory/);
    await expect(writeFileAtomic(path.join(dir, 'missing', 'x.json'), 'x')).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe(readFileCapped.name, () => {
  it('stops reading past the limit, even from an endless file', async () => {
    await expect(readFileCapped('/dev/zero', 1024 * 1024)).rejects.toBeInstanceOf(InputTooLargeError);
    await expect(readFileCapped('/dev/zero', 1024 * 1024)).rejects.toThrow('larger than 1 MiB: not an input the CLI reads');
  });

  it('refuses a file that is not UTF-8 rather than reading U+FFFD', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-files-'));
    try {
      await writeFile(path.join(dir, 'bad.json'), Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0x80]), Buffer.from('"}')]));
      await expect(readFileCapped(path.join(dir, 'bad.json'))).rejects.toThrow('not UTF-8 text (byte 6 is not), so not read');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads a file within the limit', async () => {
    expect(await readFileCapped(__filename)).toContain('readFileCapped');
  });
});

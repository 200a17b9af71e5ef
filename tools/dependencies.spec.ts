import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The root package's dependencies (docs/development.md "Dependencies"): `dependencies` holds what the shipped code
 * imports (bundled into the apps, the CLI and the SDK), `devDependencies` what only builds, tests, examples and the
 * dev stack use. Nothing listed goes unused, and the Prisma packages move in lockstep.
 */
const ROOT = path.resolve(__dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Shipped source: apps/<x>/src and libs/<x>/src, with the generated code, without tests and dev-only libraries. */
const DEV_ONLY_LIBS = new Set(['testing', 'devstack']);
/** Test code next to the shipped code (docs/development.md "Test conventions"): specs, fixtures and test helpers. */
const TEST_CODE = /\.(spec|test|fixture)\.ts$|^(fixtures|test-helpers)\.ts$/;
function shippedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) {
        if (name !== 'node_modules' && name !== 'test') walk(file);
      } else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(name) && !TEST_CODE.test(name)) {
        out.push(file);
      }
    }
  };
  for (const group of ['apps', 'libs']) {
    for (const project of readdirSync(path.join(ROOT, group))) {
      if (group === 'libs' && DEV_ONLY_LIBS.has(project)) continue;
      const src = path.join(ROOT, group, project, 'src');
      try {
        walk(src);
      } catch {
        // A project without src/.
      }
    }
  }
  return out;
}

/** The package names a file imports or requires (bare specifiers only). */
function importedPackages(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"./][^'"]*)['"]/g)) {
    const spec = m[1]!;
    if (spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    names.push(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  }
  return names;
}

describe('root package dependencies', () => {
  const imported = new Set(shippedFiles().flatMap((file) => importedPackages(readFileSync(file, 'utf8'))));

  it('lists under dependencies only what the shipped code imports', () => {
    expect(Object.keys(pkg.dependencies).filter((name) => !imported.has(name))).toEqual([]);
  });

  it('lists under dependencies everything the shipped code imports (not only under devDependencies)', () => {
    const workspace = (name: string) => name.startsWith('@arbiter/');
    const devOnly = [...imported].filter((name) => !workspace(name) && !(name in pkg.dependencies) && name in pkg.devDependencies);
    // Types-only imports of a dev package are erased at build time.
    expect(devOnly.filter((name) => !name.startsWith('@types/'))).toEqual([]);
  });

  it('pins @prisma/client, @prisma/adapter-pg and prisma to one version', () => {
    const versions = [pkg.dependencies['@prisma/client'], pkg.dependencies['@prisma/adapter-pg'], pkg.devDependencies.prisma];
    expect(versions.every((v) => /^\d+\.\d+\.\d+$/.test(v ?? ''))).toBe(true);
    expect(new Set(versions).size).toBe(1);
  });

  it('keeps the libraries the hand-written pieces are measured against to devDependencies (bench/handwritten)', () => {
    const benchmarked = ['rate-limiter-flexible', 'pino-http', 'raw-body'];
    expect(benchmarked.filter((name) => name in pkg.dependencies || !(name in pkg.devDependencies))).toEqual([]);
    expect(benchmarked.filter((name) => imported.has(name))).toEqual([]);
  });
});

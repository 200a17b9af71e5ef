import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dockerfileStages, execForm, ROOT } from './manifests';

/**
 * docker/Dockerfile, read as BuildKit reads it (no container engine here): the runtime stage holds the bundle and
 * the production dependencies only, runs as a non-root user, and checks its own health. That the files it names
 * are what scripts/bundle.mjs makes is checked by bundles.int.spec.ts, which builds them.
 */

const DOCKERFILE = path.join(ROOT, 'docker', 'Dockerfile');
const { globalArgs, stages } = dockerfileStages(readFileSync(DOCKERFILE, 'utf8'));
const stage = (name: string) => stages.find((s) => s.name === name)!;
const runtime = stages[stages.length - 1];
const of = (keyword: string, s = runtime) => s.instructions.filter((i) => i.keyword === keyword);

describe('docker/Dockerfile', () => {
  it('builds in stages and ends with the runtime stage', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'deps', 'runtime']);
    expect(new Set(stages.map((s) => s.from))).toEqual(new Set(['${NODE_IMAGE}']));
    expect(globalArgs).toContain('NODE_IMAGE');
  });

  it('declares APP in every stage that uses it (a build argument is scoped to its stage)', () => {
    for (const s of stages) {
      const uses = s.instructions.some((i) => i.args.includes('${APP}') || i.args.includes('"${APP}"'));
      const declares = of('ARG', s).some((i) => i.args.split('=')[0] === 'APP');
      expect({ stage: s.name, ok: !uses || declares }).toEqual({ stage: s.name, ok: true });
    }
  });

  it('bundles the app named by APP with scripts/bundle.mjs', () => {
    const bundle = of('RUN', stage('build')).find((i) => i.args.includes('scripts/bundle.mjs'));
    expect(bundle?.args).toContain('node scripts/bundle.mjs "${APP}" --out-dir /out');
    expect(existsSync(path.join(ROOT, 'scripts', 'bundle.mjs'))).toBe(true);
  });

  it('installs only production dependencies of the generated package.json, without install scripts', () => {
    const deps = stage('deps');
    expect(of('COPY', deps).map((i) => i.args)).toEqual(['--from=build /out/${APP}/package.json ./']);
    const install = of('RUN', deps)
      .map((i) => i.args)
      .join(' ');
    expect(install).toContain('npm install --omit=dev --ignore-scripts');
  });

  it('copies into the runtime image only those dependencies and the bundle folder', () => {
    expect(of('COPY').map((i) => i.args)).toEqual(['--from=deps /app/node_modules ./node_modules', '--from=build /out/${APP}/ ./']);
    expect(of('RUN')).toEqual([]);
  });

  it('runs as a numeric non-root user, so Kubernetes can verify runAsNonRoot', () => {
    const [user] = of('USER');
    expect(user.args).toMatch(/^[1-9]\d*:[1-9]\d*$/);
  });

  it('listens on all interfaces and tells healthcheck.js which service it is', () => {
    const env = of('ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
    expect(env).toMatch(/ARBITER_SERVICE=\$\{APP\}/);
    expect(env).toMatch(/NODE_ENV=production/);
  });

  it('checks its health with node healthcheck.js and runs main.js', () => {
    const [health] = of('HEALTHCHECK');
    expect(execForm(health.args)).toEqual(['node', 'healthcheck.js']);
    const [cmd] = of('CMD');
    expect(execForm(cmd.args)).toEqual(['node', '--enable-source-maps', 'main.js']);
  });

  it('keeps out of the build context nothing the build needs', () => {
    const ignore = readFileSync(path.join(ROOT, 'docker', 'Dockerfile.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'scripts',
      'apps',
      'libs',
      'prisma',
      'docker',
      'e2e',
      'tools',
    ];
    for (const entry of needed) {
      expect(existsSync(path.join(ROOT, entry))).toBe(true);
      expect(ignore).not.toContain(entry);
    }
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.git', 'docker/.env']));
  });
});

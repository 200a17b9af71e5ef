// Generates the Prisma client of every service, offline: `prisma generate` never runs the schema
// engine, so a stub binary stands in for the one the CLI would otherwise download (docs/development.md).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prismaBin = path.join(root, 'node_modules', '.bin', 'prisma');
if (!existsSync(prismaBin)) process.exit(0); // first pass of a partial install

for (const service of readdirSync(path.join(root, 'prisma')).sort()) {
  const schema = path.join(root, 'prisma', service, 'schema.prisma');
  if (!existsSync(schema)) continue;
  execFileSync(prismaBin, ['generate', '--schema', schema], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
  console.log(`prisma client generated for ${service}`);
}

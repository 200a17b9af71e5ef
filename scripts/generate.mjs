// Regenerates what is generated and committed: each service's tsoa routes and OpenAPI document, the
// registry's and the ledger's internal APIs (tsoa.internal.json: their routes and openapi.internal.json),
// and the client types generated from those documents. Run after changing a controller or a model (npm run generate);
// tests fail while they are stale (tools/openapi-fresh.spec.ts, libs/*/src/generated-fresh.spec.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finishFile } from './openapi-finish.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apps = process.argv.slice(2).length ? process.argv.slice(2) : ['registry', 'verdict', 'ledger'];
for (const app of apps) {
  const cwd = path.join(root, 'apps', app);
  for (const config of ['tsoa.json', 'tsoa.internal.json']) {
    if (!existsSync(path.join(cwd, config))) continue;
    execFileSync(path.join(root, 'node_modules/.bin/tsoa'), ['spec-and-routes', '-c', config], { cwd, stdio: 'inherit' });
    // What tsoa cannot say (scripts/openapi-finish.mjs): the public document in full, the internal one its structure only.
    const spec = JSON.parse(readFileSync(path.join(cwd, config), 'utf8')).spec;
    finishFile(path.join(cwd, spec.outputDirectory, `${spec.specFileBaseName}.json`), app, { structureOnly: config !== 'tsoa.json' });
    console.log(`generated routes and OpenAPI document for ${app} (${config})`);
  }
}
execFileSync(process.execPath, [path.join(root, 'scripts/generate-client.mjs')], { stdio: 'inherit' }); // SDK and internal API types from the fresh documents

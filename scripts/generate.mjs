// Regenerates what is generated and committed: each service's tsoa routes and OpenAPI document.
// Run after changing a controller or a model (npm run generate); a test fails while they are stale.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apps = process.argv.slice(2).length ? process.argv.slice(2) : ['registry', 'verdict', 'ledger'];
for (const app of apps) {
  execFileSync(path.join(root, 'node_modules/.bin/tsoa'), ['spec-and-routes'], { cwd: path.join(root, 'apps', app), stdio: 'inherit' });
  console.log(`generated routes and openapi.json for ${app}`);
}
execFileSync(process.execPath, [path.join(root, 'scripts/generate-client.mjs')], { stdio: 'inherit' }); // SDK types from the fresh openapi.json files

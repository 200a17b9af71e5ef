// The folder scheme every service follows (docs/adr/0008-one-layout-and-library-boundaries.md): layers,
// the same in registry, verdict and ledger. checkLayout is pure over a file list and a reader, so its
// own test can feed it a broken tree.
import path from 'node:path';

export const SERVICES = ['registry', 'verdict', 'ledger'] as const;

/** The folders a service's src/ may hold, and what each is for. */
export const LAYERS: Record<string, string> = {
  controllers: 'tsoa controllers: the HTTP contract, thin, one call into a service',
  http: 'express-level code: authentication, the error dialect middleware, fast lanes, request guards',
  services: 'use cases and stateful components (*.service.ts), the only callers of repositories',
  repositories: 'persistence (*.repository.ts), every tenant-scoped method typed with TenantId',
  domain:
    'pure logic (error constructors, body and query parsing, pagination, tenant access included): no I/O, no framework, no other layer',
  presenters: 'stored rows (types from repositories/) to API models, pure',
  models: 'API types tsoa reads',
  clients: 'outbound I/O other than the database (webhook sending, DNS, Redis announcements)',
  generated: 'the Prisma client (gitignored, made by npm install)',
};

/** What a layer may not import (relative imports into these sibling folders, or these packages). */
const FORBIDDEN: Record<string, { layers: string[]; packages: RegExp[] }> = {
  domain: {
    layers: ['controllers', 'http', 'services', 'repositories', 'presenters', 'clients', 'generated'],
    packages: [/^express$/, /^pg$/, /^ioredis$/, /^bullmq$/, /^@prisma\//, /^@tsoa\//, /^node:(fs|http|https|dns)$/],
  },
  // Presenters read the row types repositories export; they call nothing.
  presenters: { layers: ['controllers', 'http', 'services', 'clients'], packages: [/^express$/, /^pg$/, /^ioredis$/] },
  repositories: { layers: ['controllers', 'http', 'services', 'presenters', 'clients'], packages: [/^express$/, /^@tsoa\//] },
  // Services never import http/ (ADR 0020): error constructors, pagination and tenant access live in domain/, the edge maps them to HTTP.
  services: { layers: ['controllers', 'http'], packages: [/^express$/, /^@tsoa\//] },
  models: { layers: ['controllers', 'http', 'services', 'repositories', 'presenters', 'clients', 'generated'], packages: [] },
};

/** File name rules per layer (spec files and their fixtures aside). */
const NAMES: Record<string, RegExp> = {
  services: /\.service\.ts$/,
  repositories: /(\.repository|^db)\.ts$/,
  controllers: /(\.controller|^internal-input|^mount|^routes\.generated)\.ts$/,
};

export interface LayoutInput {
  /** Repository-relative paths of tracked files. */
  files: string[];
  read(file: string): string;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g;

export function checkLayout({ files, read }: LayoutInput): string[] {
  const problems: string[] = [];
  for (const service of SERVICES) {
    const src = `apps/${service}/src/`;
    for (const file of files.filter((f) => f.startsWith(src) && f.endsWith('.ts'))) {
      const parts = file.slice(src.length).split('/');
      if (parts.length === 1) continue; // composition at the root: app, server, context, config, keys, metrics...
      const layer = parts[0];
      if (!(layer in LAYERS)) {
        problems.push(`${file}: folder ${layer}/ is not a layer (${Object.keys(LAYERS).join(', ')})`);
        continue;
      }
      const base = parts[parts.length - 1];
      const isTest = /\.spec\.ts$|\.fixture\.ts$|^fixtures\.ts$/.test(base);
      const rule = NAMES[layer];
      if (rule && !isTest && !rule.test(base)) problems.push(`${file}: ${layer}/ holds ${LAYERS[layer]}; the name must match ${rule}`);
      const forbidden = FORBIDDEN[layer];
      if (!forbidden || isTest) continue;
      for (const match of read(file).matchAll(IMPORT)) {
        const spec = match[1];
        if (spec.startsWith('.')) {
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
          if (!target.startsWith(src)) continue;
          const targetLayer = target.slice(src.length).split('/')[0];
          if (forbidden.layers.includes(targetLayer)) problems.push(`${file}: ${layer}/ may not import ${targetLayer}/ (${spec})`);
        } else if (forbidden.packages.some((p) => p.test(spec))) {
          problems.push(`${file}: ${layer}/ may not import ${spec}`);
        }
      }
    }
  }
  return problems;
}

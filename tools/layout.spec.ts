import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkLayout } from './layout';

const root = path.resolve(__dirname, '..');

describe('checkLayout', () => {
  const tree = (files: Record<string, string>) => ({ files: Object.keys(files), read: (f: string) => files[f] });

  it('accepts the layers with their names and imports', () => {
    expect(
      checkLayout(
        tree({
          'apps/ledger/src/context.ts': '',
          'apps/ledger/src/domain/chain.ts': "import { sha256Hex } from '@arbiter/canonical';\nimport type { X } from '../models/ledger';",
          'apps/ledger/src/services/facts.service.ts': "import { LedgerRepository } from '../repositories/ledger.repository';",
          'apps/ledger/src/repositories/ledger.repository.ts': "import type { Pool } from 'pg';",
          'apps/ledger/src/services/facts.service.spec.ts': "import express from 'express';",
        }),
      ),
    ).toEqual([]);
  });

  it('refuses a feature folder, a misnamed file and an import against the layering', () => {
    expect(
      checkLayout(
        tree({
          'apps/verdict/src/approvals/approvals.service.ts': '',
          'apps/registry/src/services/presenters.ts': '',
          'apps/registry/src/repositories/scopes.ts': '',
          'apps/ledger/src/domain/chain.ts': "import { LedgerRepository } from '../repositories/ledger.repository';",
          'apps/ledger/src/domain/payload.ts': "import type { Pool } from 'pg';",
          'apps/ledger/src/services/facts.service.ts': "import { StreamsController } from '../controllers/streams.controller';",
          'apps/verdict/src/services/check.service.ts':
            "import { notFound } from '../http/errors';\nimport type { Page } from '../domain/pagination';",
        }),
      ),
    ).toEqual([
      expect.stringMatching(/^apps\/registry\/src\/services\/presenters\.ts: services\/ holds/),
      expect.stringMatching(/^apps\/registry\/src\/repositories\/scopes\.ts: repositories\/ holds/),
      expect.stringMatching(/^apps\/verdict\/src\/approvals\/approvals\.service\.ts: folder approvals\/ is not a layer/),
      // Error constructors, pagination and tenant access live in domain/; the edge maps them to HTTP.
      'apps/verdict/src/services/check.service.ts: services/ may not import http/ (../http/errors)',
      'apps/ledger/src/domain/chain.ts: domain/ may not import repositories/ (../repositories/ledger.repository)',
      'apps/ledger/src/domain/payload.ts: domain/ may not import pg',
      'apps/ledger/src/services/facts.service.ts: services/ may not import controllers/ (../controllers/streams.controller)',
    ]);
  });
});

describe('the services', () => {
  it('follow one layout', () => {
    const files = execFileSync('git', ['ls-files', 'apps'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(checkLayout({ files, read: (f) => readFileSync(path.join(root, f), 'utf8') })).toEqual([]);
  });
});

import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { commentLines, styleOf } from './citations';
import { readText, repositoryFiles } from './repository';

/**
 * No tracker numbers in the code (docs/development.md "Conventions"). The ESLint rule
 * (tools/eslint/no-tracker-numbers.cjs) covers the comments and test names of every linted file; this
 * spec covers the comments of every tracked file ESLint does not read (SQL, Prisma schemas, YAML,
 * Dockerfiles, shell, bench/, scripts/, docker/) and is run by `npm run lint` too (tools/package.json).
 * Markdown is documentation: it may tell the project's history.
 */
const rule = require('./eslint/no-tracker-numbers.cjs');
const { trackerNumbers } = rule as { trackerNumbers(text: string): string[] };

/** Not scanned: documentation, the lockfile, and the rule and this spec, which spell out what they refuse. */
const SKIPPED = /\.md$|(^|\/)package-lock\.json$|^tools\/eslint\/no-tracker-numbers\.cjs$|^tools\/tracker-numbers\.spec\.ts$/;

/** `file:line: "found"` for every tracker number in a comment of a file of the tree. */
function trackerFindings(files: readonly string[], read: (file: string) => string | null): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (SKIPPED.test(file)) continue;
    const text = read(file);
    if (text === null) continue;
    commentLines(text, styleOf(file)).forEach((comment, i) => {
      for (const found of trackerNumbers(comment)) out.push(`${file}:${i + 1}: "${found}"`);
    });
  }
  return out;
}

describe('the tracker number matcher', () => {
  it.each([
    ['see issue 14', ['issue 14']],
    ['(Issue #3, item 2)', ['Issue #3']],
    ['issues 3 and 5', ['issues 3']],
    ['fixed in issue14', ['issue14']],
    ['ticket 9; pull request 12; pull-request #4', ['ticket 9', 'pull request 12', 'pull-request #4']],
    ['since PR 12 and PR #13', ['PR 12', 'PR #13']],
    ['GH-7', ['GH-7']],
    ['the fix (#14)', ['#14']],
    ['#14: first line', ['#14']],
    ['[#3]', ['#3']],
  ])('finds %j', (text, found) => {
    expect(trackerNumbers(text)).toEqual(found);
  });

  it.each([
    'RFC 9162 proofs',
    'ES256 and P-256 signatures, Ed25519',
    'answers HTTP 404, 409 or 503',
    '# heading',
    '## 7. Network',
    '#!/usr/bin/env node',
    'docs/operations.md#9-tracing and [tracing](#9-tracing)',
    'https://example.com/page#3',
    'ADR 0016 and docs/adr/0016-ledger-sealers-and-stream-namespaces.md',
    'the issuer, an issued key, issues a token, reissue 3 times',
    'SHA-256, sha256: digests, 2^53, UTF-8, U+0000',
    'round 2 acts for that human; item 3 of the list; step 2',
    'colour &#39; entity',
    'pr 5 in lower case (an abbreviation)',
  ])('leaves %j alone', (text) => {
    expect(trackerNumbers(text)).toEqual([]);
  });
});

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never, sourceType: 'module' } });

describe('no-tracker-numbers rule', () => {
  tester.run('no-tracker-numbers', rule, {
    valid: [
      { code: '// RFC 9162 inclusion proofs, signed with ES256 (docs/evidence.md "Proofs"); 404 when absent\nconst a = 1;' },
      {
        code: '/** docs/ledger-formats.md "Concurrency": appends are linearised. */\ndescribe(\'ledger appends across two processes\', () => {});',
      },
      { code: "it('answers 409 when the version moved', () => {});" },
      // A string that is not a test name is data, not a signpost.
      { code: "const fixture = 'issue 14';" },
    ],
    invalid: [
      { code: '// Ledger benchmark (issue 3): bundles the services.\nconst a = 1;', errors: [{ messageId: 'tracker' }] },
      {
        code: '/**\n * Abuse cases of Issue 26, item 6 (#26).\n */\nconst a = 1;',
        errors: [{ messageId: 'tracker' }, { messageId: 'tracker' }],
      },
      { code: "describe('evidence packs (issue 26, item 7)', () => {});", errors: [{ messageId: 'tracker' }] },
      { code: "it.skip(`issue 14: ${'x'}`, () => {});", errors: [{ messageId: 'tracker' }] },
      { code: "it.each([1])('case %s (#14)', () => {});", errors: [{ messageId: 'tracker' }] },
      { code: "test('GH-7 regression', () => {});", errors: [{ messageId: 'tracker' }] },
    ],
  });
});

describe('tracker numbers in the comments of any file', () => {
  const tree = (files: Record<string, string>) => trackerFindings(Object.keys(files), (f) => files[f] ?? null);

  it('reads each kind of file by its comment syntax', () => {
    expect(
      tree({
        'prisma/registry/migrations/20260101000000_x/migration.sql': "-- the outbox (issue 6)\nSELECT 'issue 7';",
        'prisma/registry/schema.prisma': '// --- Approvals (#6; ADR 0005) ---\n/// a row per event (issue 6)',
        'k8s/base/x.yaml': 'name: issue-14 # see issue 14\nimage: x # RFC 9162',
        'docker/Dockerfile': '# syntax=docker/dockerfile:1\n# build (issue 7)',
        'bench/verdict/floor.ts': "// The floor (issue 5)\nconst label = 'issue 5';",
        'scripts/x.mjs': '#!/usr/bin/env node\n/* bundles (PR 3) */',
        'docs/benchmarks.md': '### Tracing off and on (issue 16)',
      }),
    ).toEqual([
      'prisma/registry/migrations/20260101000000_x/migration.sql:1: "issue 6"',
      'prisma/registry/schema.prisma:1: "#6"',
      'prisma/registry/schema.prisma:2: "issue 6"',
      'k8s/base/x.yaml:1: "issue 14"',
      'docker/Dockerfile:2: "issue 7"',
      'bench/verdict/floor.ts:1: "issue 5"',
      'scripts/x.mjs:2: "PR 3"',
    ]);
  });
});

describe('the repository', () => {
  it('has no tracker number in a comment', () => {
    expect(trackerFindings(repositoryFiles(), readText)).toEqual([]);
  });
});

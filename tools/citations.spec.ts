import { existsSync } from 'node:fs';
import path from 'node:path';
import { anchors, checkCitations, sectionNames, slug, type Tree } from './citations';
import { readText, repositoryFiles, root } from './repository';

/** A tree of in-memory files, for the checker's own tests. */
function tree(files: Record<string, string>): Tree {
  return { files: Object.keys(files), read: (f) => files[f] ?? null };
}
const problems = (files: Record<string, string>) => checkCitations(tree(files)).map((f) => `${f.file}:${f.line}: ${f.problem}`);

const DOCS = {
  'docs/ledger.md': [
    '# Ledger',
    '## Contract',
    '### Limits',
    '### Session cookie (verdict check and resolve)',
    '## 7. Network',
    '**Worker health.** The worker has no API.',
    '```bash',
    '# not a heading',
    '```',
  ].join('\n'),
  'apps/ledger/src/x.ts': '',
};

describe('the citation checker', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('Limits and validation (400 VALIDATION_ERROR, nothing stored)')).toBe(
      'limits-and-validation-400-validation_error-nothing-stored',
    );
    expect(slug("The gateway's API")).toBe('the-gateways-api');
    expect([...anchors('# A\n## Errors\n### Errors\n```\n# B\n```')]).toEqual(['a', 'errors', 'errors-1']);
    const names = sectionNames(DOCS['docs/ledger.md']);
    for (const name of [
      'contract',
      'network',
      '7. network',
      'worker health',
      'session cookie',
      'session cookie (verdict check and resolve)',
    ]) {
      expect(names.has(name)).toBe(true);
    }
    expect(names.has('not a heading')).toBe(false);
  });

  it('accepts citations that have a target', () => {
    expect(
      problems({
        ...DOCS,
        'apps/ledger/src/a.ts': [
          '// docs/ledger.md "Limits", "Contract"; docs/ledger.md#limits; apps/ledger/src/x.ts; apps/ledger/src/',
          '// docs/ledger.md, "Network" and "Worker health" (docs/ledger.md "Worker health"), docs/ledger.md "Session cookie"',
          '// apps/<service>/src/x.ts, apps/*/src/x.ts, docs/{ledger,ledger}.md',
        ].join('\n'),
        'docs/other.md':
          '[limits](ledger.md#limits), [it](../apps/ledger/src/x.ts), [here](#other), [web](https://example.com/x.md#nope)\n# Other',
      }),
    ).toEqual([]);
  });

  it('refuses every mention of a document outside the repository', () => {
    const outside = [
      'Document' + ' 1',
      'DESIGN' + '.md section 5',
      'INFRA' + '-NOTES.md',
      'STYLE' + '.md',
      '../' + 'shared/spec/x',
      'verdict-service' + '.md',
    ];
    const found = problems({ 'apps/a.ts': outside.map((o) => `// see ${o}`).join('\n') });
    expect(found).toHaveLength(outside.length);
    expect(found[0]).toMatch(/^apps\/a\.ts:1: cites Document 1, which is not in the repository$/);
  });

  it('refuses paths that name nothing, and headings that do not exist', () => {
    expect(
      problems({
        ...DOCS,
        'apps/a.ts': [
          '// apps/ledger/src/gone.ts',
          '// docs/ledger.md "Rate limits"',
          '// docs/ledger.md#rate-limits',
          '// docs/missing.md "Limits"',
          '// scripts/<name>.mjs',
        ].join('\n'),
        'docs/b.md': '[x](ledger.md#nope) [y](missing.md)',
      }),
    ).toEqual([
      'apps/a.ts:1: names apps/ledger/src/gone.ts, which is not in the repository',
      'apps/a.ts:2: cites docs/ledger.md "Rate limits", but docs/ledger.md has no such heading',
      'apps/a.ts:3: cites docs/ledger.md#rate-limits, but docs/ledger.md has no such heading',
      'apps/a.ts:4: names docs/missing.md, which is not in the repository',
      'apps/a.ts:4: cites docs/missing.md, which is not in the repository',
      'apps/a.ts:5: names scripts/<name>.mjs, which is not in the repository',
      'docs/b.md:1: links to ledger.md#nope, but docs/ledger.md has no such heading',
      'docs/b.md:1: links to missing.md, which is not in the repository',
    ]);
  });

  it('reads paths in the comments of code, and outside documents everywhere', () => {
    expect(
      problems({
        'apps/a.ts': [
          "const fixture = 'apps/not/here.ts'; // but apps/gone.ts is a signpost",
          '/* a block comment names',
          ' * docs/gone.md too */ const url = "https://example.com/docs/x.md";',
          "const doc = 'Document" + " 2';",
        ].join('\n'),
        'k8s/a.yaml': 'image: apps/not/checked # apps/gone.yaml',
      }),
    ).toEqual([
      'apps/a.ts:1: names apps/gone.ts, which is not in the repository',
      'apps/a.ts:3: names docs/gone.md, which is not in the repository',
      'apps/a.ts:4: cites Document' + ' 2, which is not in the repository',
      'k8s/a.yaml:1: names apps/gone.yaml, which is not in the repository',
    ]);
  });

  it('holds applied migrations to the same rule (their comments can be corrected: libs/db earlier-checksums)', () => {
    expect(
      problems({ 'prisma/ledger/migrations/20261122000000_signing_keys/migration.sql': '-- ' + 'DESIGN' + '.md section 5' }),
    ).toHaveLength(1);
  });
});

describe('the repository', () => {
  it('cites only what it holds', () => {
    const findings = checkCitations({ files: repositoryFiles(), read: readText, existsOnDisk: (f) => existsSync(path.join(root, f)) });
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.problem}\n    ${f.text}`)).toEqual([]);
  });
});

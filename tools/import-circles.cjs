#!/usr/bin/env node
// No import circles (docs/development.md "Import circles"): no TypeScript file of the repository may reach
// itself through its imports. dpdm reads each file with the TypeScript parser and resolves its imports as
// the compiler does (the @arbiter/* aliases of tsconfig.base.json included, so a circle between two
// projects counts too); type-only imports count, since a circle of types still ties two modules into one.
// The tools project's lint target runs it, so `npm run lint` fails on a new circle.
//
//   node tools/import-circles.cjs [root]      (default: the repository; exit 1 and the circles when any)
'use strict';
const path = require('node:path');
const { parseCircular, parseDependencyTree } = require('dpdm');

/** The TypeScript files checked, relative to the root; generated code (Prisma clients, OpenAPI types) aside. */
const SOURCES = [
  'apps/*/src/**/*.ts',
  'apps/*/test/**/*.ts',
  'libs/*/src/**/*.ts',
  'libs/*/test/**/*.ts',
  'e2e/src/**/*.ts',
  'tools/**/*.ts',
  'bench/**/*.ts',
  'docker/*.ts',
  'examples/**/*.ts',
];

/** The circles among the root's files: each a list of files, each importing the next and the last the first. */
async function findImportCircles(root) {
  const tree = await parseDependencyTree(SOURCES, {
    cwd: root,
    context: root,
    tsconfig: path.join(root, 'tsconfig.base.json'),
    exclude: /[\\/](node_modules|generated)[\\/]/,
    transform: false,
  });
  return parseCircular(tree);
}

module.exports = { findImportCircles, SOURCES };

if (require.main === module) {
  const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
  findImportCircles(root).then(
    (circles) => {
      if (!circles.length) return;
      const lines = circles.map((c) => `  ${[...c, c[0]].join(' -> ')}`);
      process.stderr.write(`import circles (docs/development.md "Import circles"):\n${lines.join('\n')}\n`);
      process.exitCode = 1;
    },
    (err) => {
      process.stderr.write(`import circles: ${err.stack ?? err}\n`);
      process.exitCode = 2;
    },
  );
}

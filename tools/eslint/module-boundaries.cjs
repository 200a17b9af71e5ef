// Enforces the Nx module boundaries by project tags (docs/development.md "Conventions": apps import libs, libs never import
// apps, one app never imports another). The @nx/eslint-plugin has no release for this Nx version
// (docs/development.md), so this small rule does the same job from each project's package.json tags. It also keeps
// test code out of the product (docs/development.md "Test conventions"): the shipped files of an app or a product
// library import no spec, fixture, test helper, test/ folder or test-only library.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));

/**
 * Which tags a project may depend on; test files may also use the testing libs. `entries`: tags of
 * projects it may import only through a public entry point, i.e. a subpath the project lists in its
 * package.json "exports", imported by its alias (`@arbiter/registry/config`, a tsconfig.base.json
 * path). Tooling reads what the apps declare that way (tools/deploy checks the manifests against each
 * app's environment schema) and nothing else of them.
 */
const CONSTRAINTS = {
  'type:app': { prod: ['type:lib'], test: ['type:lib', 'type:testing'] },
  'type:lib': { prod: ['type:lib'], test: ['type:lib', 'type:testing'] },
  'type:testing': { prod: ['type:lib', 'type:testing'], test: ['type:lib', 'type:testing'] },
  'type:tooling': { prod: ['type:lib', 'type:testing'], test: ['type:lib', 'type:testing', 'type:app'], entries: ['type:app'] },
  'type:e2e': { prod: ['type:lib', 'type:testing', 'type:app'], test: ['type:lib', 'type:testing', 'type:app'] },
};

function loadProjects() {
  const projects = [];
  for (const group of ['apps', 'libs', '.']) {
    const base = path.join(root, group);
    const dirs = group === '.' ? ['e2e', 'tools'] : fs.existsSync(base) ? fs.readdirSync(base) : [];
    for (const d of dirs) {
      const pkgPath = path.join(base, d, 'package.json');
      if (!fs.existsSync(pkgPath)) continue;
      const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
      const exported = pkg.exports && typeof pkg.exports === 'object' ? Object.keys(pkg.exports) : [];
      projects.push({
        name: pkg.name,
        root: path.join(base, d) + path.sep,
        tags: (pkg.nx && pkg.nx.tags) || [],
        entries: exported.filter((e) => e.startsWith('./')),
      });
    }
  }
  return projects;
}

let cache;
function projects() {
  return (cache ??= loadProjects());
}

function projectOfFile(file) {
  return projects().find((p) => file.startsWith(p.root));
}

function projectOfImport(spec, fromFile) {
  const alias = tsconfig.compilerOptions.paths[spec];
  if (alias) return projectOfFile(path.join(root, alias[0]));
  if (spec.startsWith('@arbiter/')) return projects().find((p) => p.name === spec);
  if (spec.startsWith('.')) return projectOfFile(path.resolve(path.dirname(fromFile), spec));
  return undefined;
}

/** Test code: specs, anything under a test/ folder, fixtures and test helpers next to the code they serve. */
const TEST_FILE = /(\.spec\.ts$)|([\\/]test[\\/])|(\.fixture\.ts$)|([\\/](fixtures|test-helpers)\.ts$)/;

/** Tags of the product: what ships in an app bundle, the CLI or the SDK. */
const PRODUCT_TAGS = ['type:app', 'type:lib'];

/** The file an import names (by alias or relative path), with .ts added when it names none; undefined for a package. */
function fileOfImport(spec, fromFile) {
  const alias = tsconfig.compilerOptions.paths[spec];
  const target = alias ? path.join(root, alias[0]) : spec.startsWith('.') ? path.resolve(path.dirname(fromFile), spec) : undefined;
  if (!target) return undefined;
  return /\.[cm]?[jt]s$/.test(target) ? target : `${target}.ts`;
}

/** Whether `spec` names one of the public entry points `to` lists in its package.json "exports", by alias. */
function isPublicEntry(spec, to) {
  if (!spec.startsWith(`${to.name}/`)) return false;
  const entry = `./${spec.slice(to.name.length + 1)}`;
  return to.entries.includes(entry) && Boolean(tsconfig.compilerOptions.paths[spec]);
}

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce module boundaries between Nx projects by tags' },
    messages: {
      forbidden: '{{from}} ({{fromTags}}) may not import {{to}} ({{toTags}}).',
      notPublic: '{{from}} may import {{to}} only through an entry point its package.json "exports" lists, by alias ({{to}}/<entry>).',
      deepLib: 'Import {{to}} through its alias, not by a relative path into another project.',
      testCode:
        'Product code may not import test code ({{spec}}): specs, test/ folders, fixtures and test helpers are for tests only; shared test helpers live in @arbiter/testing (docs/development.md "Test conventions").',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const from = projectOfFile(file);
    if (!from) return {};
    const kind = TEST_FILE.test(file) ? 'test' : 'prod';
    const isProduct = kind === 'prod' && from.tags.some((t) => PRODUCT_TAGS.includes(t));
    function check(node, spec) {
      if (typeof spec !== 'string') return;
      if (isProduct) {
        const target = fileOfImport(spec, file);
        if (target && TEST_FILE.test(target)) {
          context.report({ node, messageId: 'testCode', data: { spec } });
          return;
        }
      }
      const to = projectOfImport(spec, file);
      if (!to || to === from) return;
      const allowed = new Set(from.tags.flatMap((t) => (CONSTRAINTS[t] ? CONSTRAINTS[t][kind] : [])));
      const throughEntry = new Set(from.tags.flatMap((t) => (CONSTRAINTS[t] && CONSTRAINTS[t].entries) || []));
      const ok = to.tags.some((t) => allowed.has(t));
      if (!ok && to.tags.some((t) => throughEntry.has(t))) {
        if (!isPublicEntry(spec, to)) context.report({ node, messageId: 'notPublic', data: { from: from.name, to: to.name } });
      } else if (!ok) {
        context.report({
          node,
          messageId: 'forbidden',
          data: { from: from.name, fromTags: from.tags.join(','), to: to.name, toTags: to.tags.join(',') },
        });
      } else if (spec.startsWith('.') && to.tags.includes('type:lib')) {
        context.report({ node, messageId: 'deepLib', data: { to: to.name } });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

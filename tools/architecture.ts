// The generated tables of docs/architecture.md, computed from the tree: which libraries exist (libs/*
// with a package.json), their floors (a library's floor is one above the highest library it imports),
// which library each app imports, and the test-only code other projects use. Only the "What it does"
// cells are written by hand; tools/architecture.spec.ts keeps the rest true. Pure: it works on a file
// list and a reader, so the spec can feed it a synthetic tree.
import path from 'node:path';

export interface Tree {
  /** Tracked files, repository-relative, `/`-separated. */
  files: readonly string[];
  read(file: string): string | null;
}

interface Project {
  /** `apps/verdict`, `libs/policy`. */
  dir: string;
  /** The package name, `@arbiter/policy`. */
  name: string;
  tags: string[];
}

export interface Architecture {
  /** Product libraries (tag type:lib), lowest floor first, then by name. */
  libraries: { dir: string; floor: number; imports: string[] }[];
  /** App folder names, sorted. */
  apps: string[];
  /** Library dir → the apps whose product code imports it. */
  importedBy: Map<string, string[]>;
  /** Test-only code other places import: libraries tagged type:testing and projects' test/ folders. */
  testOnly: { dir: string; entry: string | null; usedBy: string[] }[];
}

/** Code whose imports count. */
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** A project's test code (as tools/layout.ts and the module-boundaries rule read it). */
const TEST = /\.spec\.ts$|\.fixture\.ts$|(^|\/)fixtures\.ts$|\/test\//;
/** Import and require specifiers, static and dynamic. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function projectsOf(tree: Tree): Project[] {
  const out: Project[] = [];
  for (const file of tree.files) {
    const m = /^((?:apps|libs)\/[^/]+)\/package\.json$/.exec(file);
    if (!m) continue;
    const pkg = JSON.parse(tree.read(file) ?? '{}') as { name?: string; nx?: { tags?: string[] } };
    out.push({ dir: m[1], name: pkg.name ?? m[1], tags: pkg.nx?.tags ?? [] });
  }
  return out.sort((a, b) => a.dir.localeCompare(b.dir));
}

/** Where a file is, for "used by": `apps/verdict`, `libs/http`, else its top folder (`e2e`, `bench`, `scripts`). */
function placeOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'apps' || parts[0] === 'libs' ? parts.slice(0, 2).join('/') : parts[0];
}

/** A resolved import target: a project's product code, or its test/ folder (a test-only entry). */
interface Target {
  dir: string;
  test: boolean;
}

export function architecture(tree: Tree): Architecture {
  const projects = projectsOf(tree);
  const byName = new Map(projects.map((p) => [p.name, p]));
  const projectOfPath = (file: string): Project | undefined => projects.find((p) => file.startsWith(`${p.dir}/`));
  const paths =
    (JSON.parse(tree.read('tsconfig.base.json') ?? '{}') as { compilerOptions?: { paths?: Record<string, string[]> } }).compilerOptions
      ?.paths ?? {};
  const targetOfPath = (file: string): Target | undefined => {
    const p = projectOfPath(file);
    return p && { dir: p.dir, test: file.slice(p.dir.length).startsWith('/test/') };
  };
  const targetOf = (spec: string, from: string): Target | undefined => {
    if (paths[spec]) return targetOfPath(paths[spec][0]);
    if (spec.startsWith('.')) return targetOfPath(path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)));
    const p = byName.get(spec);
    return p && { dir: p.dir, test: false };
  };

  // Every libs/* folder gets a row: a product library or test-only code, nothing in between.
  const untagged = projects.filter((p) => p.dir.startsWith('libs/') && !p.tags.includes('type:lib') && !p.tags.includes('type:testing'));
  if (untagged.length)
    throw new Error(`${untagged.map((p) => p.dir).join(', ')}: tag it type:lib or type:testing in its package.json "nx"`);
  const libs = projects.filter((p) => p.tags.includes('type:lib'));
  const apps = projects.filter((p) => p.tags.includes('type:app'));
  const isLib = new Set(libs.map((l) => l.dir));
  /** Product imports: project dir → the libraries its src/ (tests aside) imports. */
  const uses = new Map<string, Set<string>>(projects.map((p) => [p.dir, new Set()]));
  /** Test-only code → the places that import it. */
  const testUsers = new Map<string, { entry: string | null; users: Set<string> }>();
  for (const p of projects.filter((p) => p.tags.includes('type:testing'))) testUsers.set(p.dir, { entry: p.name, users: new Set() });
  const entryOf = new Map<string, string>();
  for (const [alias, [target]] of Object.entries(paths)) if (target.includes('/test/')) entryOf.set(path.posix.dirname(target), alias);

  for (const file of tree.files) {
    if (!CODE.test(file) || file.includes('/generated/')) continue;
    const from = projectOfPath(file);
    const text = tree.read(file);
    if (text === null) continue;
    const product = from !== undefined && file.startsWith(`${from.dir}/src/`) && !TEST.test(file) && !from.tags.includes('type:testing');
    for (const m of text.matchAll(IMPORT)) {
      const to = targetOf(m[1], file);
      if (!to || to.dir === from?.dir) continue;
      if (to.test || testUsers.has(to.dir)) {
        const key = to.test ? `${to.dir}/test` : to.dir;
        if (!testUsers.has(key)) testUsers.set(key, { entry: entryOf.get(key) ?? null, users: new Set() });
        testUsers.get(key)!.users.add(placeOf(file));
      } else if (product && isLib.has(to.dir)) {
        uses.get(from.dir)!.add(to.dir);
      }
    }
  }

  const floors = new Map<string, number>();
  const floorOf = (dir: string, seen: string[] = []): number => {
    if (seen.includes(dir)) throw new Error(`libraries import each other in a circle: ${[...seen, dir].join(' → ')}`);
    if (!floors.has(dir)) floors.set(dir, Math.max(-1, ...[...uses.get(dir)!].map((d) => floorOf(d, [...seen, dir]))) + 1);
    return floors.get(dir)!;
  };
  const short = (dir: string) => dir.split('/')[1];
  const libraries = libs
    .map((l) => ({ dir: l.dir, floor: floorOf(l.dir), imports: [...uses.get(l.dir)!].map(short).sort() }))
    .sort((a, b) => a.floor - b.floor || a.dir.localeCompare(b.dir));
  const importedBy = new Map(libs.map((l) => [l.dir, apps.filter((a) => uses.get(a.dir)!.has(l.dir)).map((a) => short(a.dir))]));
  const testOnly = [...testUsers.entries()]
    .map(([dir, t]) => ({ dir, entry: t.entry, usedBy: [...t.users].sort() }))
    .sort((a, b) => a.dir.localeCompare(b.dir));
  return { libraries, apps: apps.map((a) => short(a.dir)), importedBy, testOnly };
}

/** The text a hand-written "What it does" cell holds until someone writes it. */
export const UNDESCRIBED = '**(say in one line what it does)**';

const begin = (name: string) => `<!-- generated: ${name} (tools/architecture.spec.ts) -->`;
const end = (name: string) => `<!-- end generated: ${name} -->`;

/** The cells of a Markdown table row. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}

/** The current text of a generated block, '' when the document has none. */
function blockOf(doc: string, name: string): string {
  const from = doc.indexOf(begin(name));
  const to = doc.indexOf(end(name));
  return from === -1 || to === -1 ? '' : doc.slice(from + begin(name).length, to);
}

/** The hand-written "What it does" cells of a block's table, by the row's first cell that names code (`libs/<name>`). */
function descriptions(block: string, column: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of block.split('\n')) {
    if (!line.startsWith('|')) continue;
    const row = cells(line);
    const key = row.find((c) => /^`[^`]+`/.test(c));
    if (key && row[column] && row[column] !== UNDESCRIBED) out.set(/^`([^`]+)`/.exec(key)![1], row[column]);
  }
  return out;
}

function table(header: string[], align: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export interface Rendered {
  text: string;
  /** Rows whose "What it does" cell is still to be written. */
  undescribed: string[];
}

/** The document with its generated blocks made from `arch`, keeping the hand-written cells. */
export function render(doc: string, arch: Architecture): Rendered {
  const undescribed: string[] = [];
  const describe = (known: Map<string, string>, key: string) => {
    const d = known.get(key);
    if (d === undefined) undescribed.push(key);
    return d ?? UNDESCRIBED;
  };
  const blocks: Record<string, string> = {};

  const libText = descriptions(blockOf(doc, 'libraries'), 2);
  blocks.libraries = table(
    ['Floor', 'Library', 'What it does', 'Imports'],
    ['--:', '---', '---', '---'],
    arch.libraries.map((l) => [String(l.floor), `\`${l.dir}\``, describe(libText, l.dir), l.imports.join(', ') || '—']),
  );

  blocks.apps = table(
    ['Library', ...arch.apps.map((a) => `apps/${a}`)],
    ['---', ...arch.apps.map(() => ':-:')],
    arch.libraries.map((l) => [
      `\`${l.dir.split('/')[1]}\``,
      ...arch.apps.map((a) => (arch.importedBy.get(l.dir)!.includes(a) ? '●' : '')),
    ]),
  );

  const testText = descriptions(blockOf(doc, 'test-only code'), 2);
  blocks['test-only code'] = table(
    ['Test-only code', 'Import it as', 'What it does', 'Used by'],
    ['---', '---', '---', '---'],
    arch.testOnly.map((t) => [
      `\`${t.dir}\``,
      t.entry ? `\`${t.entry}\`` : 'a relative path',
      describe(testText, t.dir),
      t.usedBy.join(', ') || '—',
    ]),
  );

  let text = doc;
  for (const [name, body] of Object.entries(blocks)) {
    const from = text.indexOf(begin(name));
    const to = text.indexOf(end(name));
    if (from === -1 || to === -1) throw new Error(`docs/architecture.md has no block "${begin(name)}" … "${end(name)}"`);
    text = `${text.slice(0, from)}${begin(name)}\n${body}\n${text.slice(to)}`;
  }
  return { text, undescribed };
}

// The citation checker behind tools/citations.spec.ts: every signpost in the repository must point
// at something inside it. It finds
//   (a) mentions of documents that are not in the repository (the API contract lives in the
//       "Contract" part of docs/verdicts.md, docs/registry.md and docs/ledger-formats.md);
//   (b) repository paths (docs/…, apps/…, libs/…, scripts/…, bench/…) that name no tracked file or
//       folder, and relative Markdown links to files that do not exist;
//   (c) `docs/x.md#anchor`, `docs/x.md "Heading"` (also `x.md, "Heading"` and Markdown links with
//       an anchor) whose heading does not exist. A quoted name matches a heading or a paragraph's
//       bold lead-in (`**Worker health.**`), ignoring a leading section number ("7. Network") and a
//       trailing parenthetical ("Session cookie (verdict check and resolve)"); an anchor must be
//       a heading's, as GitHub makes them.
// Pure: it works on a list of files and a reader, so the spec can feed it synthetic input.
import path from 'node:path';

export interface Finding {
  file: string;
  line: number;
  problem: string;
  text: string;
}

export interface Tree {
  /** Tracked files, repository-relative, `/`-separated. */
  files: readonly string[];
  /** The text of a tracked file; null when it is binary or unreadable. */
  read(file: string): string | null;
  /** Whether an untracked path exists on disk (generated, gitignored output such as Prisma clients). */
  existsOnDisk?(file: string): boolean;
}

/** Documents outside the repository that nothing may cite (built from parts, so that a search for them finds only real citations). */
export const FORBIDDEN: readonly RegExp[] = [
  new RegExp('DESIGN' + '\\.md'),
  new RegExp('INFRA' + '-NOTES'),
  new RegExp('STYLE' + '\\.md'),
  new RegExp('\\bDocument' + ' [123]\\b'),
  new RegExp('\\.\\.' + '/shared\\b'),
  new RegExp('(?:verdict-service|registry-api|fact-ledger-api)' + '\\.md'),
];

/**
 * Not scanned at all: lockfiles list package paths, not signposts; the checker and its spec spell
 * out, as examples and fixtures, the very forms they look for.
 */
const SKIPPED = /(^|\/)(package-lock\.json|node_modules\/)|^tools\/citations(\.spec)?\.ts$/;

/** Paths the repository names but never tracks: the operator makes them (git-ignored). */
export const UNTRACKED_BY_DESIGN: ReadonlySet<string> = new Set(['docker/.env']);

/** Lines whose path-like text is not a repository path. */
const NOT_PATHS = [/^\s*apiVersion:/, /syntax=docker\//];

/** Build output and generated code: git-ignored, made by a build or by `postinstall`. */
const BUILD_OUTPUT = /(^|\/)(dist|generated)(\/|$)/;

/**
 * Where a file's signposts are. Markdown and JSON (the OpenAPI documents' descriptions) are read
 * whole; in code and configuration only comments are, since string literals name paths for other
 * reasons (test fixtures, globs). Ignore files list patterns, not citations.
 */
export type Style = 'all' | 'slash' | 'hash' | 'sql' | 'none';
export function styleOf(file: string): Style {
  const name = file.split('/').pop() ?? file;
  if (/\.(md|json)$/.test(name)) return 'all';
  if (/\.(ts|tsx|js|mjs|cjs|prisma)$/.test(name)) return 'slash';
  if (/\.sql$/.test(name)) return 'sql';
  if (/(^|\.)(gitignore|dockerignore)$/.test(name)) return 'none';
  return 'hash';
}

/** The comment text of each line (`slash`: `//` and block comments; `hash`: `#`; `sql`: `--`). */
export function commentLines(text: string, style: Style): string[] {
  const lines = text.split('\n');
  if (style === 'all') return lines;
  if (style === 'none') return lines.map(() => '');
  if (style === 'hash') return lines.map((l) => /(?:^|\s)#(.*)$/.exec(l)?.[1] ?? '');
  if (style === 'sql') return lines.map((l) => /--(.*)$/.exec(l)?.[1] ?? '');
  let inBlock = false;
  return lines.map((line) => {
    let out = '';
    for (let i = 0; i < line.length;) {
      if (inBlock) {
        const end = line.indexOf('*/', i);
        out += ' ' + line.slice(i, end === -1 ? line.length : end);
        if (end === -1) break;
        inBlock = false;
        i = end + 2;
        continue;
      }
      const block = line.indexOf('/*', i);
      let slash = line.indexOf('//', i);
      while (slash > 0 && line[slash - 1] === ':') slash = line.indexOf('//', slash + 2); // a URL
      if (slash !== -1 && (block === -1 || slash < block)) {
        out += ' ' + line.slice(slash + 2);
        break;
      }
      if (block === -1) break;
      inBlock = true;
      i = block + 2;
    }
    return out;
  });
}

/** Top-level folders whose paths are checked. */
const ROOTS = ['docs', 'apps', 'libs', 'scripts', 'bench', 'tools', 'e2e', 'prisma', 'k8s', 'docker', '.ci'];

// A repository path: one of ROOTS, then path characters; placeholders (<name>, ${expr}, {a,b}, *)
// are allowed and match any segment text. Not after a word, a dot or a slash (so `../apps/x` in an
// import, `dist/apps/x` and URLs are left alone).
const PATH_RE = new RegExp(
  `(?<![\\w.\\/@$-])(?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})\\/(?:[\\w.\\/\\-*]|<[^<>\\s]+>|\\$\\{[^}\\s]+\\}|\\{[\\w.,-]+\\})*`,
  'g',
);
// A Markdown file name (with a path or not) followed by an anchor, or by one or more quoted headings.
const MD_CITE_RE = /((?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\w-]+)|((?:,?\s"[^"\n]+")(?:,\s"[^"\n]+")*))/g;
// A relative Markdown link: [text](target).
const MD_LINK_RE = /\]\(([^)\s]+)\)/g;

/** A heading's text as a slug, as GitHub makes anchors. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The plain text of the headings of a Markdown text, outside fenced code blocks. */
export function headings(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (fence === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h)
      out.push(
        h[1]
          .replace(/`/g, '')
          .replace(/\*\*|__/g, '')
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'),
      );
  }
  return out;
}

/** The names a quoted citation may use for a Markdown text's sections: headings and bold lead-ins. */
export function sectionNames(markdown: string): Set<string> {
  const out = new Set<string>();
  const add = (name: string) => {
    const plain = name.replace(/`/g, '').trim();
    const unnumbered = plain.replace(/^\d+(?:\.\d+)*\.?\s+/, '');
    for (const n of [plain, unnumbered]) {
      out.add(n.toLowerCase());
      out.add(n.replace(/\s*\([^()]*\)$/, '').toLowerCase());
    }
  };
  for (const h of headings(markdown)) add(h);
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
    if (fence !== null || f) continue;
    const lead = /^\s*(?:[-*]\s+|\d+\.\s+)?\*\*([^*]+?)[.:]?\*\*/.exec(line);
    if (lead) add(lead[1]);
  }
  return out;
}

/** GitHub's anchors of a Markdown text: slugs, a repeated one suffixed -1, -2, … */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(markdown)) {
    const base = slug(h);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function patternOf(ref: string): RegExp | null {
  if (!/[*<{$]/.test(ref)) return null;
  let re = '';
  for (let i = 0; i < ref.length;) {
    const rest = ref.slice(i);
    const m = /^(<[^<>]+>|\$\{[^}]+\}|\*)/.exec(rest);
    if (m) {
      re += '[^/]*';
      i += m[0].length;
      continue;
    }
    const alt = /^\{([^}]+)\}/.exec(rest);
    if (alt) {
      re += `(?:${alt[1].split(',').map(escape).join('|')})`;
      i += alt[0].length;
      continue;
    }
    re += escape(ref[i]);
    i++;
  }
  return new RegExp(`^${re}(?:/.*)?$`);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function checkCitations(tree: Tree): Finding[] {
  const files = tree.files.filter((f) => !SKIPPED.test(f));
  const fileSet = new Set(tree.files);
  const dirSet = new Set<string>();
  for (const f of tree.files) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) dirSet.add(parts.slice(0, i).join('/'));
  }
  const exists = (p: string): boolean => {
    const clean = p.replace(/\/+$/, '');
    return fileSet.has(clean) || dirSet.has(clean) || UNTRACKED_BY_DESIGN.has(clean) || (tree.existsOnDisk?.(clean) ?? false);
  };
  const mdCache = new Map<string, { anchors: Set<string>; names: Set<string> } | null>();
  const sectionsOf = (file: string) => {
    if (!mdCache.has(file)) {
      const text = fileSet.has(file) ? tree.read(file) : null;
      mdCache.set(file, text === null ? null : { anchors: anchors(text), names: sectionNames(text) });
    }
    return mdCache.get(file) ?? null;
  };

  const findings: Finding[] = [];
  for (const file of files) {
    let text = tree.read(file);
    if (text === null) continue;
    // JSON (the OpenAPI documents) escapes the quotes of `docs/x.md "Heading"`.
    if (file.endsWith('.json')) text = text.replace(/\\"/g, '"').replace(/\\n/g, '\n');
    const isMarkdown = file.endsWith('.md');
    const lines = text.split('\n');
    const signposts = commentLines(text, styleOf(file));
    const report = (i: number, problem: string) => findings.push({ file, line: i + 1, problem, text: lines[i].trim() });

    lines.forEach((line, i) => {
      // (a) outside documents
      for (const re of FORBIDDEN) {
        const m = re.exec(line);
        if (m) report(i, `cites ${m[0]}, which is not in the repository`);
      }

      // (b) repository paths (a package.json names its scripts relative to its own folder)
      const comment = signposts[i];
      if (!NOT_PATHS.some((re) => re.test(line)))
        for (const m of comment.matchAll(PATH_RE)) {
          const ref = m[0].replace(/[.\-]+$/, '').replace(/\/+$/, '');
          if (BUILD_OUTPUT.test(ref)) continue;
          const pattern = patternOf(ref);
          const local = path.posix.join(path.posix.dirname(file), ref);
          const ok = pattern ? [...fileSet, ...dirSet].some((f) => pattern.test(f)) : exists(ref) || exists(local);
          if (!ok) report(i, `names ${ref}, which is not in the repository`);
        }

      // (c) headings of Markdown files: `x.md#anchor`, `x.md "Heading"`, `x.md, "Heading", "Other"`
      for (const m of comment.matchAll(MD_CITE_RE)) {
        // A Markdown link's target is checked with the links below.
        if (isMarkdown && m[2] !== undefined && comment[(m.index ?? 0) - 1] === '(') continue;
        const target = resolveMd(file, m[1], fileSet);
        if (target === null) {
          if (!isUrlContext(comment, m.index ?? 0)) report(i, `cites ${m[1]}, which is not in the repository`);
          continue;
        }
        const sections = sectionsOf(target);
        if (sections === null) continue;
        if (m[2] !== undefined) {
          if (!sections.anchors.has(m[2])) report(i, `cites ${m[1]}#${m[2]}, but ${target} has no such heading`);
        } else {
          for (const q of m[3].matchAll(/"([^"\n]+)"/g)) {
            const wanted = q[1];
            if (!sections.names.has(wanted.replace(/`/g, '').trim().toLowerCase())) {
              report(i, `cites ${m[1]} "${wanted}", but ${target} has no such heading`);
            }
          }
        }
      }

      // (b, c) relative Markdown links
      if (isMarkdown) {
        for (const m of line.matchAll(MD_LINK_RE)) {
          const link = m[1];
          if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('/')) continue;
          const [rawPath, anchor] = link.split('#');
          const target = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), rawPath));
          if (!exists(target)) {
            report(i, `links to ${link}, which is not in the repository`);
            continue;
          }
          if (anchor !== undefined && target.endsWith('.md')) {
            const sections = sectionsOf(target);
            if (sections !== null && !sections.anchors.has(anchor)) report(i, `links to ${link}, but ${target} has no such heading`);
          }
        }
      }
    });
  }
  return findings;
}

/**
 * The Markdown file a citation names: a repository path (`docs/x.md`, `README.md`), else a file
 * next to the citing file (docs cite each other as `identity.md`), else a file under docs/.
 */
function resolveMd(from: string, name: string, files: ReadonlySet<string>): string | null {
  const candidates = [name, path.posix.join(path.posix.dirname(from), name), `docs/${name}`];
  return candidates.find((c) => files.has(path.posix.normalize(c))) ?? null;
}

/** Whether a match sits inside a URL (https://host/x.md), which is not a repository citation. */
function isUrlContext(line: string, index: number): boolean {
  const before = line.slice(0, index);
  return /\b[a-z]+:\/\/\S*$/i.test(before);
}

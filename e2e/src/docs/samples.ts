// The fenced code blocks of README.md and docs/*.md, read as the doc test runs them (docs/development.md
// "Doc samples"). Pure: text in, blocks and problems out; running them is e2e/src/docs/runner.ts.

/** One fenced block: where it starts, its info string (language first, then marks) and its text. */
export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The info string's words after the language: `illustration`, `file=<path>`. */
  marks: string[];
  text: string;
}

/** Commands: run in bash, in order, unless marked `illustration`. */
export const SHELL_LANGS = ['sh', 'bash', 'shell'];
/** Program text: a sample is a file the doc includes (`file=<path>`), else an `illustration`. */
export const CODE_LANGS = ['ts', 'typescript', 'js', 'javascript', 'mjs'];
/** What a command prints, a file's content, a request on the wire, a diagram: shown, never run. */
export const DATA_LANGS = ['text', 'json', 'yaml', 'http', 'diff', 'sql', 'csv', 'xml', 'html', 'dockerfile', 'ini', 'toml', 'promql'];

export const ILLUSTRATION = 'illustration';

/** Every fenced block of a Markdown text (CommonMark fences, indented up to three spaces or inside a list item). */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    if (fence[0] === '`' && info.includes('`')) continue; // inline code spanning a line, not a fence
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    const [lang = '', ...marks] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ file, line: i + 1, lang: lang.toLowerCase(), marks, text: body.length ? `${body.join('\n')}\n` : '' });
    i = j;
  }
  return blocks;
}

export type Step = { kind: 'run'; block: DocBlock } | { kind: 'include'; block: DocBlock; path: string };

/**
 * What the doc test does with each block, and the blocks it refuses: a block without a language, a language
 * it does not know, a TypeScript or JavaScript sample that is neither included from a file nor an illustration.
 */
export function planBlocks(blocks: DocBlock[]): { steps: Step[]; problems: string[] } {
  const steps: Step[] = [];
  const problems: string[] = [];
  for (const block of blocks) {
    const at = `${block.file}:${block.line}`;
    const include = block.marks.find((m) => m.startsWith('file='));
    const unknown = block.marks.filter((m) => m !== ILLUSTRATION && !m.startsWith('file='));
    if (!block.lang) {
      problems.push(
        `${at}: a fenced block without a language: name it (\`\`\`text for output and diagrams, \`\`\`sh for commands, \`\`\`sh ${ILLUSTRATION} for commands not to run)`,
      );
      continue;
    }
    if (![...SHELL_LANGS, ...CODE_LANGS, ...DATA_LANGS].includes(block.lang)) {
      problems.push(
        `${at}: unknown language "${block.lang}": use one of ${[...SHELL_LANGS, ...CODE_LANGS, ...DATA_LANGS].join(', ')} (or add it to e2e/src/docs/samples.ts)`,
      );
      continue;
    }
    if (unknown.length) {
      problems.push(
        `${at}: unknown mark ${unknown.map((m) => `"${m}"`).join(', ')} in the info string: the marks are "${ILLUSTRATION}" and "file=<path>"`,
      );
      continue;
    }
    if (include) {
      const path = include.slice('file='.length);
      if (!/^(examples|docs\/examples)\/[\w./-]+$/.test(path) || path.split('/').includes('..')) {
        problems.push(`${at}: file=${path}: an included file lives under examples/ or docs/examples/`);
        continue;
      }
      steps.push({ kind: 'include', block, path });
      continue;
    }
    if (block.marks.includes(ILLUSTRATION)) continue;
    if (SHELL_LANGS.includes(block.lang)) steps.push({ kind: 'run', block });
    else if (CODE_LANGS.includes(block.lang)) {
      problems.push(
        `${at}: a ${block.lang} sample runs as a complete file under examples/ that the doc includes (\`\`\`${block.lang} file=examples/…, with a command that runs it), or is marked \`\`\`${block.lang} ${ILLUSTRATION}`,
      );
    }
  }
  return { steps, problems };
}

/** The base URLs `npm start` serves on by default: in a block that runs, each stands for the test stack's. */
export const DEFAULT_URLS = {
  registry: 'http://127.0.0.1:3001',
  verdict: 'http://127.0.0.1:3002',
  ledger: 'http://127.0.0.1:3003',
} as const;

/** A block's text with the default URLs replaced by the stack's (origins without a trailing slash). */
export function fillUrls(text: string, urls: Record<keyof typeof DEFAULT_URLS, string>): string {
  let out = text;
  for (const service of Object.keys(DEFAULT_URLS) as (keyof typeof DEFAULT_URLS)[]) {
    out = out.split(DEFAULT_URLS[service]).join(urls[service].replace(/\/$/, ''));
  }
  return out;
}

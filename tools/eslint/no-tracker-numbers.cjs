// No tracker numbers in the code (docs/development.md "Conventions"): a comment or a test name that says
// "issue 14", "Issue #3", "(#14)", "PR 12" or "GH-7" sends the reader to a tracker they do not have. The reason
// belongs in the docs, and the code cites the section that holds it (`docs/<name>.md "Heading"`).
// `trackerNumbers` is the one matcher; this ESLint rule applies it to the comments and test names of every
// linted file, and tools/tracker-numbers.spec.ts to the comments of every other tracked file (SQL, Prisma
// schemas, YAML, Dockerfiles, shell, bench/, scripts/).
'use strict';

/**
 * What a tracker reference looks like. Not: "RFC 9162", "ES256", "P-256", "HTTP 404", "# heading",
 * a Markdown anchor (`operations.md#9-tracing`, `(#9-tracing)`), a shebang, "ADR 0016" (an in-repo document).
 */
const PATTERNS = [
  // issue 14, Issue #3, issues 3 and 5, issue14, ticket 9, pull request 12, pull-request #12
  /\b(?:issues?|tickets?|pull[ -]requests?)\s*#?\s*\d+\b/gi,
  // PR 12, PR #12 (upper case only: "pr" is also an abbreviation)
  /\bPRs?\s*#?\d+\b/g,
  // GH-7, gh-7
  /\bGH-\d+\b/gi,
  // #14, (#14), [#14]: a hash and digits standing alone (an anchor such as #9-tracing goes on with a hyphen)
  /(?<![\w#&/.-])#\d+(?![\w-])/g,
];

/** The tracker references in a text, as written, in order; "issue #14" once, not also as "#14". */
function trackerNumbers(text) {
  const matches = [];
  for (const re of PATTERNS) for (const m of text.matchAll(re)) matches.push({ at: m.index, end: m.index + m[0].length, text: m[0] });
  matches.sort((a, b) => a.at - b.at || b.end - a.end);
  const found = [];
  let covered = -1;
  for (const m of matches) {
    if (m.at < covered) continue;
    found.push(m.text);
    covered = m.end;
  }
  return found;
}

const TEST_FUNCTIONS = new Set(['describe', 'it', 'test']);

/** Whether a call is describe/it/test, or a variant of them (`it.skip`, `describe.each(table)`). */
function isTestCall(callee) {
  let node = callee;
  while (node) {
    if (node.type === 'Identifier') return TEST_FUNCTIONS.has(node.name);
    if (node.type === 'MemberExpression') node = node.object;
    else if (node.type === 'CallExpression') node = node.callee;
    else return false;
  }
  return false;
}

/** The text of a string or template literal (its static parts), else null. */
function literalText(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' ');
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Refuse tracker numbers ("issue 14", "#14") in comments and test names: cite the docs section that holds the reason',
    },
    messages: {
      tracker:
        '"{{found}}": a reader has no tracker. Say the reason, or cite the docs section that holds it (docs/<name>.md "Heading"; docs/development.md "Conventions").',
    },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    const report = (node, loc, text) => {
      for (const found of trackerNumbers(text)) context.report({ node, loc, messageId: 'tracker', data: { found } });
    };
    return {
      Program(node) {
        for (const comment of source.getAllComments()) report(node, comment.loc, comment.value);
      },
      CallExpression(node) {
        if (!isTestCall(node.callee)) return;
        const title = literalText(node.arguments[0]);
        if (title !== null) report(node.arguments[0], node.arguments[0].loc, title);
      },
    };
  },
};

module.exports = rule;
module.exports.trackerNumbers = trackerNumbers;

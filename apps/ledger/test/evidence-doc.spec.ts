import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// docs/evidence.md "A worked example: a 7-leaf tree" prints every hash of a small tree. This test
// recomputes each of them with node:crypto alone (RFC 9162 section 2.1 written out here, not the
// ledger's code), so the document cannot drift from the format.

const doc = readFileSync(path.resolve(__dirname, '../../../docs/evidence.md'), 'utf8');
const section = (title: string) => {
  const start = doc.indexOf(`## ${title}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 3);
  return doc.slice(start, end === -1 ? undefined : end);
};
const example = section('A worked example: a 7-leaf tree');

const sha = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const text = (b: Buffer) => `sha256:${b.toString('hex')}`;
const leafOf = (factHash: Buffer) => sha(Buffer.from([0x00]), factHash);
const node = (l: Buffer, r: Buffer) => sha(Buffer.from([0x01]), l, r);

const facts = Array.from({ length: 7 }, (_, i) => sha(Buffer.from(`fact ${i}`, 'ascii')));
const l = facts.map(leafOf);
const n01 = node(l[0], l[1]);
const n23 = node(l[2], l[3]);
const n45 = node(l[4], l[5]);
const n03 = node(n01, n23);
const n47 = node(n45, l[6]);
const root = node(n03, n47);
const root3 = node(n01, l[2]);

const jsonBlocks = () => [...example.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));

describe('docs/evidence.md worked example', () => {
  it('prints each fact_hash with its leaf hash', () => {
    facts.forEach((f, i) => expect(example).toContain(`| ${i} | \`${text(f)}\` | \`${text(l[i])}\` |`));
  });

  it('prints every interior node and the root', () => {
    const rows: Array<[string, string, Buffer]> = [
      ['n[0:2]', 'leaf 0, leaf 1', n01],
      ['n[2:4]', 'leaf 2, leaf 3', n23],
      ['n[4:6]', 'leaf 4, leaf 5', n45],
      ['n[0:4]', 'n[0:2], n[2:4]', n03],
      ['n[4:7]', 'n[4:6], leaf 6', n47],
      ['root', 'n[0:4], n[4:7]', root],
    ];
    for (const [name, children, hash] of rows) expect(example).toContain(`| ${name} | ${children} | \`${text(hash)}\` |`);
  });

  it('prints the inclusion proof of leaf 5 and the consistency proof from 3 to 7 as RFC 9162 defines them', () => {
    expect(jsonBlocks()).toEqual([
      { leaf_index: 5, tree_size: 7, inclusion_path: [l[4], l[6], n03].map(text) },
      { from: 3, to: 7, consistency_path: [l[2], l[3], n01, n47].map(text) },
    ]);
    expect(example).toContain(`\`${text(root3)}\``);
  });

  it('prints no hash that is not one of these', () => {
    const known = new Set([...facts, ...l, n01, n23, n45, n03, n47, root, root3].map(text));
    const printed = example.match(/sha256:[0-9a-f]{64}/g) ?? [];
    expect(printed.length).toBeGreaterThan(20);
    expect(printed.filter((h) => !known.has(h))).toEqual([]);
    // The checkpoint example in "Checkpoints" is this tree's root too.
    expect(section('Checkpoints')).toContain(`"root_hash": "${text(root)}"`);
  });
});

import { canonicalJson } from '@arbiter/canonical';
import { ChainWalk, describeBreak, type StoredFact, type StreamHead } from './chain';
import { computeFactHash, GENESIS_PREV_HASH } from './fact-hash';

const STREAM = { stream_id: 's-1', tenant_id: 'tnt-a' };

function chain(n: number): { facts: StoredFact[]; head: StreamHead } {
  const facts: StoredFact[] = [];
  let prev: string = GENESIS_PREV_HASH;
  let parent: string | null = null;
  for (let i = 1; i <= n; i++) {
    const payload_text = canonicalJson({ i, note: `fact ${i}` });
    // Facts sealed before the ledger recorded the sealer (sealed_by null) chain with facts that have one.
    const fields = {
      ...STREAM,
      fact_id: `fct-${i}`,
      actor: 'agent:a',
      sealed_by: i % 2 ? 'agn-a' : null,
      sealed_at_ms: 1000 + i,
      prev_hash: prev,
    };
    const fact_hash = computeFactHash(fields, payload_text);
    facts.push({ ...fields, seq: i, payload_text, fact_hash, parent_fact_id: parent });
    prev = fact_hash;
    parent = `fct-${i}`;
  }
  return { facts, head: { ...STREAM, head_seq: n, head_fact_id: parent, head_hash: prev } };
}

function walk(facts: StoredFact[], head: StreamHead) {
  const sut = new ChainWalk(head);
  for (const f of facts) {
    const broken = sut.check(f);
    if (broken) return { broken, verified: sut.factsVerified };
  }
  return { broken: sut.finish(), verified: sut.factsVerified };
}

describe(ChainWalk.name, () => {
  it('accepts an intact chain and counts every fact', () => {
    const { facts, head } = chain(5);
    expect(walk(facts, head)).toEqual({ broken: null, verified: 5 });
  });

  it('names the fact whose payload was edited', () => {
    const { facts, head } = chain(5);
    facts[2] = { ...facts[2], payload_text: '{"i":3,"note":"edited"}' };
    const { broken, verified } = walk(facts, head);
    expect(verified).toBe(2);
    expect(broken).toMatchObject({ fact_id: 'fct-3', position: 3 });
    expect(describeBreak(broken!)).toMatch(/^chain broken at fact fct-3 \(position 3\): its content does not match its fact_hash$/);
  });

  it.each([
    ['changed', 'agn-b'],
    ['removed', null],
  ])('names the fact whose sealed_by was %s: fact_hash covers it', (_how, sealedBy) => {
    const { facts, head } = chain(5);
    facts[0] = { ...facts[0], sealed_by: sealedBy };
    expect(walk(facts, head).broken).toMatchObject({ fact_id: 'fct-1', reason: 'its content does not match its fact_hash' });
  });

  it('names the fact that was given a sealed_by it was not sealed with', () => {
    const { facts, head } = chain(5);
    facts[1] = { ...facts[1], sealed_by: 'agn-a' };
    expect(walk(facts, head).broken).toMatchObject({ fact_id: 'fct-2' });
  });

  it('names the fact whose stored hash was replaced', () => {
    const { facts, head } = chain(5);
    facts[1] = { ...facts[1], fact_hash: `sha256:${'1'.repeat(64)}` };
    expect(walk(facts, head).broken).toMatchObject({ fact_id: 'fct-2' });
  });

  it('names the fact after a deleted one', () => {
    const { facts, head } = chain(5);
    facts.splice(2, 1);
    const { broken, verified } = walk(facts, head);
    expect(verified).toBe(2);
    expect(broken).toMatchObject({ fact_id: 'fct-4', position: 4 });
    expect(broken!.reason).toMatch(/position 3 is missing/);
  });

  it('names the first fact out of order when two swap positions', () => {
    const { facts, head } = chain(5);
    const swapped = [facts[0], { ...facts[2], seq: 2 }, { ...facts[1], seq: 3 }, facts[3], facts[4]];
    const { broken } = walk(swapped, head);
    expect(broken).toMatchObject({ fact_id: 'fct-3', position: 2 });
    expect(broken!.reason).toMatch(/does not link to the previous fact fct-1/);
  });

  it('names the head when the tail of the stream is missing', () => {
    const { facts, head } = chain(5);
    const { broken, verified } = walk(facts.slice(0, 4), head);
    expect(verified).toBe(4);
    expect(broken).toMatchObject({ fact_id: 'fct-5', position: 5 });
  });

  it('refuses a fact moved to another tenant', () => {
    const { facts, head } = chain(3);
    facts[1] = { ...facts[1], tenant_id: 'tnt-b' };
    expect(walk(facts, head).broken).toMatchObject({ fact_id: 'fct-2' });
  });

  it('accepts a stored payload rewritten without changing its meaning, as an outside verifier would', () => {
    const { facts, head } = chain(3);
    facts[1] = { ...facts[1], payload_text: '{ "note": "fact 2", "i": 2.0 }' };
    expect(walk(facts, head).broken).toBeNull();
  });
});

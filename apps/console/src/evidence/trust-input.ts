// A trust file the user loads in the browser (docs/evidence.md "The trust file"): its text read as JSON and
// checked by the same parser the CLI uses.
import { parseTrustFile, type TrustAnchors } from '@arbiter/client/browser';

export function trustFromText(text: string, name: string): { ok: true; trust: TrustAnchors } | { ok: false; error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, error: `${name} is not JSON: load the file \`arbiter trust export\` wrote` };
  }
  try {
    return { ok: true, trust: parseTrustFile(doc, name) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

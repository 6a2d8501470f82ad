/**
 * Name keys (nameKey) of spans of address tokens, each token folded once: the address parser asks a gazetteer about
 * every prefix or suffix of a run, and folding each span anew made a long query's parse quadratic. No Node imports.
 */
import type { AddressToken } from './abbreviations';
import { nameKey } from './fold';

/** nameKey of each token's text, folded once: a parse asks for the keys of many spans of the same run. */
const TOKEN_KEYS = new WeakMap<AddressToken, string>();
function tokenKey(t: AddressToken): string {
  let k = TOKEN_KEYS.get(t);
  if (k === undefined) TOKEN_KEYS.set(t, (k = nameKey(t.text)));
  return k;
}

/**
 * nameKey(text(ws)) from the tokens' own keys: folding and dropping leading zeros work word by word (no mark, case or
 * zero rule reaches across the space between words), so the keys of the words, empty ones left out, joined by a
 * space are the same string.
 */
export function key(ws: readonly AddressToken[]): string {
  let out = '';
  for (const w of ws) {
    const k = tokenKey(w);
    if (k !== '') out = out === '' ? k : `${out} ${k}`;
  }
  return out;
}

/** The keys of every prefix of `ws` (index `n` holds key(ws.slice(0, n))), built left to right as suffixKeys is. */
export function prefixKeys(ws: readonly AddressToken[]): string[] {
  const out = [''];
  for (const w of ws) {
    const k = tokenKey(w);
    const before = out[out.length - 1]!;
    out.push(k === '' ? before : before === '' ? k : `${before} ${k}`);
  }
  return out;
}

/**
 * The keys of every suffix of `ws` (index `start` holds key(ws.slice(start))), built right to left in linear time:
 * each is the word's key before the next suffix's (concatenation, so a long run costs no quadratic copying; a
 * gazetteer rejects a key longer than any name by its length alone).
 */
export function suffixKeys(ws: readonly AddressToken[]): string[] {
  const out: string[] = new Array<string>(ws.length + 1);
  out[ws.length] = '';
  for (let i = ws.length - 1; i >= 0; i--) {
    const k = tokenKey(ws[i]!);
    const rest = out[i + 1]!;
    out[i] = k === '' ? rest : rest === '' ? k : `${k} ${rest}`;
  }
  return out;
}

import type { ChArrays } from './ch.js';

/**
 * The arrays of a "CH layout v4" (or v3) hierarchy, as older packs store them: records in state order, the upward
 * ranges of all states (`upFirst`, Uint32[S + 1], sections `ch.<id>.upf`) before the downward ones (`dnFirst`,
 * `ch.<id>.dnf`, dnFirst[0] = upFirst[S]); rank, node, a, b and the landmarks as in layout v5.
 */
export interface ChArraysV4 extends Omit<ChArrays, 'first'> {
  upFirst: Uint32Array;
  dnFirst: Uint32Array;
}

/** Section name of a v4 range array of hierarchy `id`. */
export function chSectionV4(id: number, name: 'upFirst' | 'dnFirst'): string {
  return `ch.${id}.${name === 'upFirst' ? 'upf' : 'dnf'}`;
}

/**
 * A v4 hierarchy laid out as v5 (src/route/ch.ts) at load: states from the highest rank down, each with its upward
 * then downward records in v4 order (so searches relax and tie as before), children renamed. One pass of random
 * reads per record (on NY, 6.3 M records, about a second): packs built since v5 skip it. Throws on offsets or
 * ranks that do not fit (a corrupt pack).
 */
export function fromV4(x: ChArraysV4): ChArrays {
  const { rank, upFirst, dnFirst } = x;
  const S = rank.length,
    R = x.node.length;
  const bad = (what: string) => new Error(`corrupt contraction hierarchy: ${what}`);
  // Ranges in state order that tile 0 .. R: each record is in exactly one.
  let tiled = upFirst.length === S + 1 && dnFirst.length === S + 1 && upFirst[0] === 0;
  tiled &&= dnFirst[0] === upFirst[S] && dnFirst[S] === R && x.a.length === R && x.b.length === R;
  for (let v = 0; tiled && v < S; v++) tiled = upFirst[v]! <= upFirst[v + 1]! && dnFirst[v]! <= dnFirst[v + 1]!;
  if (!tiled) throw bad('offsets do not match the records');
  const inv = new Int32Array(S).fill(-1);
  for (let s = 0; s < S; s++) {
    if (rank[s]! >= S || inv[S - 1 - rank[s]!]! >= 0) throw bad(`state ${s}`);
    inv[S - 1 - rank[s]!] = s;
  }
  const first = new Uint32Array(2 * S + 1);
  const order = new Uint32Array(R),
    renamed = new Uint32Array(R);
  let k = 0;
  for (let p = 0; p < S; p++) {
    const u = inv[p]!;
    first[2 * p] = k;
    for (let r = upFirst[u]!; r < upFirst[u + 1]!; r++) {
      order[k] = r;
      renamed[r] = k++;
    }
    first[2 * p + 1] = k;
    for (let r = dnFirst[u]!; r < dnFirst[u + 1]!; r++) {
      order[k] = r;
      renamed[r] = k++;
    }
  }
  first[2 * S] = k;
  const node = new Uint32Array(R),
    a = new Int32Array(R),
    b = new Int32Array(R);
  const xa = x.a,
    xb = x.b,
    xn = x.node;
  for (let q = 0; q < R; q++) {
    const r = order[q]!,
      ca = xa[r]!,
      cb = xb[r]!;
    node[q] = xn[r]!;
    if (ca < 0) {
      a[q] = ca;
      b[q] = cb;
    } else {
      // Out-of-range children become R (never a record), for ContractionHierarchy's check to refuse.
      a[q] = ca < R ? renamed[ca]! : R;
      b[q] = cb >= 0 && cb < R ? renamed[cb]! : R;
    }
  }
  const out: ChArrays = { rank, first, node, a, b };
  if (x.lmFrom) out.lmFrom = x.lmFrom;
  if (x.lmTo) out.lmTo = x.lmTo;
  return out;
}

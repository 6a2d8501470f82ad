/**
 * Reader for the 9th DIMACS Implementation Challenge road graphs (http://www.diag.uniroma1.it/challenge9/):
 * a `.gr` arc file (`p sp N M`, then `a u v w`) and a `.co` coordinate file (`p aux sp co N`, then
 * `v id x y` with x = longitude, y = latitude in millionths of a degree). Files may be gzip-compressed.
 */
import { basename } from 'node:path';
import { forEachLine } from './lines.js';

/** What an arc weight measures: metres (`-d` graphs) or tenths of a second (`-t` graphs). */
type DimacsWeightKind = 'distance' | 'time';

/** A directed road graph with 0-based node ids; arcs are in file order. */
export interface DimacsGraph {
  nodeCount: number;
  /** Node latitude in degrees, indexed by 0-based node id. */
  lat: Float64Array;
  /** Node longitude in degrees, indexed by 0-based node id. */
  lon: Float64Array;
  /** Arc tail (0-based node id). */
  from: Uint32Array;
  /** Arc head (0-based node id). */
  to: Uint32Array;
  /** Arc weight: metres when kind is 'distance', tenths of a second when 'time'. */
  weight: Float64Array;
  kind: DimacsWeightKind;
}

export interface ReadDimacsOptions {
  /** Overrides the weight kind otherwise taken from the .gr file name (`-d.` distance, `-t.` time). */
  kind?: DimacsWeightKind;
}

/**
 * Reads a DIMACS .gr/.co pair (plain or .gz) by streaming their lines.
 *
 * @param grPath arc file (`p sp N M`, `a u v w`, 1-based ids)
 * @param coPath coordinate file (`v id x y`, micro-degrees) for the same N nodes
 * @param opts weight kind override
 * @throws Error naming the file and line for malformed lines, ids out of range, arc or node counts that
 *   disagree with the `p` line, nodes without coordinates, or a weight kind that cannot be told
 */
export async function readDimacs(grPath: string, coPath: string, opts: ReadDimacsOptions = {}): Promise<DimacsGraph> {
  const kind = opts.kind ?? kindFromName(grPath);
  const arcs = await readArcs(grPath);
  const coords = await readCoords(coPath, arcs.nodeCount);
  return {
    nodeCount: arcs.nodeCount,
    lat: coords.lat,
    lon: coords.lon,
    from: arcs.from,
    to: arcs.to,
    weight: arcs.weight,
    kind,
  };
}

function kindFromName(path: string): DimacsWeightKind {
  const name = basename(path);
  if (name.includes('-d.')) return 'distance';
  if (name.includes('-t.')) return 'time';
  throw new Error(
    `${path}: cannot tell distance from time weights by the file name (no "-d." or "-t."); pass opts.kind`,
  );
}

/** Parses unsigned or signed decimal integers from a byte range without allocating. */
class Fields {
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  end = 0;

  at(buf: Buffer, start: number, end: number): this {
    this.buf = buf;
    this.pos = start;
    this.end = end;
    return this;
  }

  /** The next whitespace-separated integer, or NaN if the next field is missing or not an integer. */
  int(): number {
    const b = this.buf;
    let p = this.pos;
    while (p < this.end && (b[p] === 32 || b[p] === 9)) p++;
    let sign = 1;
    if (p < this.end && b[p] === 45) {
      sign = -1;
      p++;
    }
    const digits = p;
    let v = 0;
    while (p < this.end && b[p]! >= 48 && b[p]! <= 57) v = v * 10 + (b[p++]! - 48);
    if (p === digits || (p < this.end && b[p] !== 32 && b[p] !== 9)) return NaN;
    this.pos = p;
    return sign * v;
  }

  /** The next whitespace-separated word as a string (for the `p` line only). */
  word(): string {
    const b = this.buf;
    let p = this.pos;
    while (p < this.end && (b[p] === 32 || b[p] === 9)) p++;
    const s = p;
    while (p < this.end && b[p] !== 32 && b[p] !== 9) p++;
    this.pos = p;
    return b.toString('latin1', s, p);
  }

  /** True when only whitespace is left. */
  rest(): boolean {
    while (this.pos < this.end && (this.buf[this.pos] === 32 || this.buf[this.pos] === 9)) this.pos++;
    return this.pos === this.end;
  }
}

const C = 99; // 'c' comment
const P = 112; // 'p' problem line
const A = 97; // 'a' arc
const V = 118; // 'v' node coordinates

async function readArcs(
  path: string,
): Promise<{ nodeCount: number; from: Uint32Array; to: Uint32Array; weight: Float64Array }> {
  const f = new Fields();
  let n = -1;
  let m = -1;
  let count = 0;
  let from = new Uint32Array(0);
  let to = new Uint32Array(0);
  let weight = new Float64Array(0);
  await forEachLine(path, (buf, start, end, line) => {
    const bad = (what: string): Error => new Error(`${path}: line ${line}: ${what}`);
    if (start === end || buf[start] === C) return;
    const t = buf[start];
    f.at(buf, start + 1, end);
    if (t === P) {
      if (n >= 0) throw bad('second "p" line');
      if (f.word() !== 'sp') throw bad('expected "p sp <nodes> <arcs>"');
      n = f.int();
      m = f.int();
      if (!(n >= 0 && m >= 0) || !f.rest()) throw bad('expected "p sp <nodes> <arcs>"');
      from = new Uint32Array(m);
      to = new Uint32Array(m);
      weight = new Float64Array(m);
    } else if (t === A) {
      if (n < 0) throw bad('arc before the "p sp" line');
      const u = f.int();
      const v = f.int();
      const w = f.int();
      if (Number.isNaN(u) || Number.isNaN(v) || Number.isNaN(w) || !f.rest())
        throw bad('expected "a <from> <to> <weight>"');
      if (u < 1 || u > n || v < 1 || v > n) throw bad(`arc ${u} -> ${v} names a node outside 1..${n}`);
      if (w < 0) throw bad(`negative weight ${w}`);
      if (count === m) throw bad(`more arcs than the ${m} announced`);
      from[count] = u - 1;
      to[count] = v - 1;
      weight[count] = w;
      count++;
    } else throw bad(`unexpected line type "${String.fromCharCode(t!)}"`);
  });
  if (n < 0) throw new Error(`${path}: no "p sp" line`);
  if (count !== m) throw new Error(`${path}: ${count} arcs read but the "p sp" line announces ${m} (truncated?)`);
  return { nodeCount: n, from, to, weight };
}

async function readCoords(path: string, nodeCount: number): Promise<{ lat: Float64Array; lon: Float64Array }> {
  const f = new Fields();
  const lat = new Float64Array(nodeCount).fill(NaN);
  const lon = new Float64Array(nodeCount).fill(NaN);
  let count = 0;
  await forEachLine(path, (buf, start, end, line) => {
    const bad = (what: string): Error => new Error(`${path}: line ${line}: ${what}`);
    if (start === end || buf[start] === C) return;
    const t = buf[start];
    f.at(buf, start + 1, end);
    if (t === P) {
      // "p aux sp co N"
      if (f.word() !== 'aux' || f.word() !== 'sp' || f.word() !== 'co') throw bad('expected "p aux sp co <nodes>"');
      const announced = f.int();
      if (!f.rest()) throw bad('expected "p aux sp co <nodes>"');
      if (announced !== nodeCount) throw bad(`announces ${announced} nodes but the arc file has ${nodeCount}`);
    } else if (t === V) {
      const id = f.int();
      const x = f.int();
      const y = f.int();
      if (Number.isNaN(id) || Number.isNaN(x) || Number.isNaN(y) || !f.rest()) throw bad('expected "v <id> <x> <y>"');
      if (id < 1 || id > nodeCount) throw bad(`node ${id} outside 1..${nodeCount}`);
      if (!Number.isNaN(lat[id - 1]!)) throw bad(`node ${id} given twice`);
      lon[id - 1] = x / 1e6;
      lat[id - 1] = y / 1e6;
      count++;
    } else throw bad(`unexpected line type "${String.fromCharCode(t!)}"`);
  });
  if (count !== nodeCount) throw new Error(`${path}: coordinates for ${count} of ${nodeCount} nodes (truncated?)`);
  return { lat, lon };
}

/**
 * Deterministic synthetic OSM inputs of growing size for bench/build-scale.ts, made from the DIMACS New York graph:
 * NY as OSM (one tile), then k × k tiled copies side by side, joined at their borders by connector roads.
 *
 * NY as OSM: every DIMACS node is an OSM node; arcs become roads, two-way where both directions exist, else
 * `oneway=yes`; chains through nodes where exactly two compatible roads meet are joined into one way (as OSM
 * ways run through shape points), so graph nodes are intersections. Road classes follow the DIMACS travel speeds
 * (distance ÷ time of the `-t` graph: 36 km/h trunk, or motorway when one-way; 29 primary; 22 secondary; the
 * 14 km/h bulk residential, with some unclassified, tertiary and service alleys). Tags as real data has them,
 * chosen by a hash of the element: street names (Vietnamese-style, shared by the ways of a neighbourhood, the same
 * names in every tile), some maxspeed, maxweight (trucks refused), motorcycle=no, bridges; traffic signals at
 * some intersections, bollards and gates on some roads; via-node `no_left_turn` / `only_straight_on` and via-way
 * restrictions at some intersections. Everything is a function of the DIMACS files and k: same bytes every run.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import type { Member, Tags } from '../../data-tools/osm/types.js';
import { readDimacs } from '../../data-tools/dimacs/read.js';
import { PbfFileWriter } from './pbf-writer.js';

/** Bump when the generator changes, so cached inputs are made again. */
const GENERATOR_VERSION = 1;
/** Id stride per tile (NY has 264,346 nodes). */
const TILE_IDS = 1_000_000;
/** Gap between tiles, degrees. */
const GAP = 0.02;
/** Connector roads per shared tile border. */
const CONNECTORS = 24;
/** Longest way, in nodes. */
const MAX_WAY_NODES = 200;

/** What a generated input holds. */
export interface ScaleInput {
  file: string;
  tiles: number;
  nodes: number;
  ways: number;
  relations: number;
  bytes: number;
}

/** One NY tile's elements in DIMACS node indices (0-based), before ids and offsets. */
interface Base {
  lat: Int32Array;
  lon: Int32Array;
  nodeTags: Map<number, Tags>;
  ways: { refs: number[]; tags: Tags }[];
  relations: { members: { type: 'node' | 'way'; ref: number; role: string }[]; tags: Tags }[];
  /** Node indices near each border (west, east, south, north), CONNECTORS bands each, -1 where none. */
  border: Int32Array[];
  bbox: [number, number, number, number];
}

/** A 32-bit integer hash of (x, salt), for deterministic choices. */
function hash(x: number, salt: number): number {
  let h = Math.imul(x ^ Math.imul(salt, 0x9e3779b1), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const PEOPLE = [
  'Lê Lợi',
  'Trần Hưng Đạo',
  'Nguyễn Huệ',
  'Hai Bà Trưng',
  'Lý Thường Kiệt',
  'Phan Đình Phùng',
  'Quang Trung',
  'Hoàng Diệu',
  'Nguyễn Trãi',
  'Lê Duẩn',
  'Điện Biên Phủ',
  'Bà Triệu',
  'Hàng Bài',
  'Tràng Tiền',
  'Kim Mã',
  'Giảng Võ',
  'Láng Hạ',
  'Tôn Đức Thắng',
  'Nguyễn Chí Thanh',
  'Cầu Giấy',
  'Xuân Thủy',
  'Trường Chinh',
  'Giải Phóng',
  'Minh Khai',
  'Bạch Mai',
  'Lò Đúc',
  'Huế',
  'Phố Vọng',
  'Đội Cấn',
  'Hoàng Hoa Thám',
  'Thụy Khuê',
  'Lạc Long Quân',
  'Âu Cơ',
  'Nghi Tàm',
  'Yên Phụ',
  'Hàng Đào',
  'Hàng Ngang',
  'Hàng Bạc',
  'Mã Mây',
  'Đinh Tiên Hoàng',
  'Lý Thái Tổ',
  'Ngô Quyền',
  'Quán Thánh',
  'Phan Chu Trinh',
  'Tô Hiến Thành',
  'Thái Hà',
  'Chùa Bộc',
  'Tây Sơn',
  'Nguyễn Lương Bằng',
  'Khâm Thiên',
];

/** Street name shared by the ways of one class in one cell of about `cellDeg` degrees (same in every tile). */
function streetName(lat: number, lon: number, cls: string, cellDeg: number): string {
  const cell = Math.floor(lat / cellDeg) * 100_003 + Math.floor(lon / cellDeg);
  const h = hash(cell, cls.length * 7 + 1);
  const person = PEOPLE[h % PEOPLE.length]!;
  if (cls === 'residential' || cls === 'unclassified' || cls === 'service')
    return `Ngõ ${1 + ((h >>> 8) % 400)} ${person}`;
  return `${(h >>> 8) % 3 === 0 ? 'Phố' : 'Đường'} ${person}`;
}

/** Builds one NY tile from the DIMACS files. */
async function nyBase(dimacs: string): Promise<Base> {
  const d = await readDimacs(`${dimacs}USA-road-d.NY.gr.gz`, `${dimacs}USA-road-d.NY.co.gz`);
  const t = await readDimacs(`${dimacs}USA-road-t.NY.gr.gz`, `${dimacs}USA-road-d.NY.co.gz`);
  const N = d.nodeCount;
  const lat = Int32Array.from(d.lat, (x) => Math.round(x * 1e7));
  const lon = Int32Array.from(d.lon, (x) => Math.round(x * 1e7));
  // Undirected edges: both directions or one; speed km/h from the -t graph (same arc order as -d).
  const edgeOf = new Map<number, number>();
  const eu: number[] = [],
    ev: number[] = [],
    fwd: boolean[] = [],
    bwd: boolean[] = [],
    speed: number[] = [];
  for (let i = 0; i < d.from.length; i++) {
    const u = d.from[i]!,
      v = d.to[i]!;
    if (u === v) continue;
    const key = Math.min(u, v) * N + Math.max(u, v);
    let e = edgeOf.get(key);
    if (e === undefined) {
      e = eu.length;
      edgeOf.set(key, e);
      eu.push(Math.min(u, v));
      ev.push(Math.max(u, v));
      fwd.push(false);
      bwd.push(false);
      speed.push(0);
    }
    if (u < v) fwd[e] = true;
    else bwd[e] = true;
    const s = t.weight[i]! > 0 ? (d.weight[i]! / (t.weight[i]! / 10)) * 3.6 : 14;
    speed[e] = Math.max(speed[e]!, s);
  }
  const E = eu.length;
  const cls: string[] = [];
  for (let e = 0; e < E; e++) {
    const oneway = fwd[e] !== bwd[e];
    const s = speed[e]!,
      h = hash(e, 1) % 100;
    cls.push(
      s >= 34
        ? oneway
          ? 'motorway'
          : 'trunk'
        : s >= 26
          ? 'primary'
          : s >= 19
            ? 'secondary'
            : h < 4
              ? 'service'
              : h < 9
                ? 'unclassified'
                : h < 13
                  ? 'tertiary'
                  : 'residential',
    );
  }
  const inc: number[][] = Array.from({ length: N }, () => []);
  for (let e = 0; e < E; e++) {
    inc[eu[e]!]!.push(e);
    inc[ev[e]!]!.push(e);
  }
  const other = (e: number, x: number) => (eu[e] === x ? ev[e]! : eu[e]!);
  /** Direction of e seen from x: 0 two-way, 1 leaves x, -1 enters x. */
  const dirFrom = (e: number, x: number) => (fwd[e] === bwd[e] ? 0 : (eu[e] === x) === fwd[e] ? 1 : -1);
  // A node continues a way when exactly two roads of one class meet there, in compatible directions.
  const through = (x: number) => {
    const l = inc[x]!;
    if (l.length !== 2 || cls[l[0]!] !== cls[l[1]!]) return false;
    return dirFrom(l[0]!, x) === -dirFrom(l[1]!, x);
  };
  const used = new Uint8Array(E);
  const ways: Base['ways'] = [];
  const walk = (s: number, e0: number) => {
    const refs = [s];
    let x = s,
      e = e0,
      forward = 0;
    for (;;) {
      used[e] = 1;
      if (forward === 0) forward = dirFrom(e, x);
      x = other(e, x);
      refs.push(x);
      if (x === s || !through(x) || refs.length >= MAX_WAY_NODES) break;
      const l = inc[x]!;
      const next = l[0] === e ? l[1]! : l[0]!;
      if (used[next]) break;
      e = next;
    }
    // One-way chains run in their driving direction.
    if (forward === -1) refs.reverse();
    const c = cls[e0]!;
    const m = Math.floor(refs.length / 2);
    const h = hash(refs[0]! * 31 + refs[refs.length - 1]!, 2);
    const tags: Tags = { highway: c };
    if (forward !== 0 && c !== 'motorway') tags.oneway = 'yes';
    if (c !== 'service' || h % 3 === 0)
      tags.name = streetName(
        lat[refs[m]!]! / 1e7,
        lon[refs[m]!]! / 1e7,
        c,
        c === 'residential' || c === 'service' || c === 'unclassified' ? 0.005 : 0.03,
      );
    if (c === 'service' && h % 2 === 0) tags.service = 'alley';
    if ((c === 'primary' || c === 'secondary') && h % 8 === 0) tags.maxspeed = '50';
    if (c === 'residential' && h % 25 === 0) tags.maxweight = '5';
    if (c === 'trunk' && h % 10 === 0) tags['motorcycle'] = 'no';
    if (h % 200 === 7) tags.bridge = 'yes';
    ways.push({ refs, tags });
  };
  for (let x = 0; x < N; x++) if (!through(x)) for (const e of inc[x]!) if (!used[e]) walk(x, e);
  for (let e = 0; e < E; e++) if (!used[e]) walk(eu[e]!, e); // Closed loops of through nodes.

  const nodeTags = new Map<number, Tags>();
  for (let x = 0; x < N; x++) {
    const deg = inc[x]!.length,
      h = hash(x, 3);
    if (deg >= 3 && h % 7 === 0) nodeTags.set(x, { highway: 'traffic_signals' });
    else if (deg === 2 && h % 4000 === 0) nodeTags.set(x, { barrier: 'bollard' });
    else if (deg === 2 && h % 3000 === 1) nodeTags.set(x, { barrier: 'gate' });
  }
  // Restrictions: ways by end node (every intersection ends the ways through it).
  const endsAt = new Map<number, number[]>();
  ways.forEach((w, i) => {
    for (const x of [w.refs[0]!, w.refs[w.refs.length - 1]!]) {
      const l = endsAt.get(x);
      if (l) {
        if (!l.includes(i)) l.push(i);
      } else endsAt.set(x, [i]);
    }
  });
  const relations: Base['relations'] = [];
  for (const [x, l] of [...endsAt.entries()].sort((p, q) => p[0] - q[0])) {
    if (l.length < 3) continue;
    const h = hash(x, 4) % 150;
    if (h === 0)
      relations.push({
        tags: { type: 'restriction', restriction: 'no_left_turn' },
        members: [
          { type: 'way', ref: l[0]!, role: 'from' },
          { type: 'node', ref: x, role: 'via' },
          { type: 'way', ref: l[1]!, role: 'to' },
        ],
      });
    else if (h === 1)
      relations.push({
        tags: { type: 'restriction', restriction: 'only_straight_on' },
        members: [
          { type: 'way', ref: l[1]!, role: 'from' },
          { type: 'node', ref: x, role: 'via' },
          { type: 'way', ref: l[2]!, role: 'to' },
        ],
      });
  }
  ways.forEach((w, i) => {
    if (w.refs.length > 4 || hash(i, 5) % 500 !== 0) return;
    const a = endsAt.get(w.refs[0]!)?.find((j) => j !== i),
      b = endsAt.get(w.refs[w.refs.length - 1]!)?.find((j) => j !== i && j !== a);
    if (a === undefined || b === undefined) return;
    relations.push({
      tags: { type: 'restriction', restriction: 'no_left_turn' },
      members: [
        { type: 'way', ref: a, role: 'from' },
        { type: 'way', ref: i, role: 'via' },
        { type: 'way', ref: b, role: 'to' },
      ],
    });
  });

  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let x = 0; x < N; x++) {
    minLat = Math.min(minLat, lat[x]!);
    maxLat = Math.max(maxLat, lat[x]!);
    minLon = Math.min(minLon, lon[x]!);
    maxLon = Math.max(maxLon, lon[x]!);
  }
  // Border nodes: per band along a side, the node nearest that side.
  const border = [0, 1, 2, 3].map((side) => {
    const best = new Int32Array(CONNECTORS).fill(-1),
      score = new Float64Array(CONNECTORS).fill(Infinity);
    for (let x = 0; x < N; x++) {
      if (inc[x]!.length === 0) continue;
      const along = side < 2 ? (lat[x]! - minLat) / (maxLat - minLat + 1) : (lon[x]! - minLon) / (maxLon - minLon + 1);
      const b = Math.floor(along * CONNECTORS);
      const s = [lon[x]! - minLon, maxLon - lon[x]!, lat[x]! - minLat, maxLat - lat[x]!][side]!;
      if (s < score[b]!) {
        score[b] = s;
        best[b] = x;
      }
    }
    return best;
  });
  return {
    lat,
    lon,
    nodeTags,
    ways,
    relations,
    border,
    bbox: [minLon / 1e7, minLat / 1e7, maxLon / 1e7, maxLat / 1e7],
  };
}

let cachedBase: Promise<Base> | null = null;

/**
 * The synthetic input of k × k NY tiles as an OSM PBF file in `cacheDir` (made on first use, then reused).
 * `dimacs`: the folder with USA-road-d.NY.gr.gz, USA-road-t.NY.gr.gz and USA-road-d.NY.co.gz.
 */
export async function scaleInput(k: number, dimacs: string, cacheDir: string): Promise<ScaleInput> {
  mkdirSync(cacheDir, { recursive: true });
  const file = `${cacheDir}ny-${k}x${k}-v${GENERATOR_VERSION}.osm.pbf`;
  const base = await (cachedBase ??= nyBase(dimacs));
  const N = base.lat.length;
  const [w, s, e, n] = base.bbox;
  const dLon = Math.round((e - w + GAP) * 1e7),
    dLat = Math.round((n - s + GAP) * 1e7);
  const bands = (from: number, to: number) =>
    base.border[from]!.filter((p, b) => p >= 0 && base.border[to]![b]! >= 0).length;
  const counts = {
    nodes: k * k * N,
    ways: k * k * base.ways.length + k * (k - 1) * (bands(1, 0) + bands(3, 2)),
    relations: k * k * base.relations.length,
  };
  if (existsSync(file)) return { file, tiles: k * k, ...counts, bytes: statSync(file).size };
  const tmp = `${file}.tmp`;
  const out = new PbfFileWriter(tmp, [w, s, w + (k * dLon) / 1e7, s + (k * dLat) / 1e7]);
  const tiles = Array.from({ length: k * k }, (_, i) => ({ i, tx: i % k, ty: Math.floor(i / k) }));
  const nodeId = (tile: number, x: number) => tile * TILE_IDS + x + 1;
  for (const { i, tx, ty } of tiles) {
    for (let x = 0; x < N; x++)
      out.node(nodeId(i, x), base.lat[x]! + ty * dLat, base.lon[x]! + tx * dLon, base.nodeTags.get(x) ?? null);
  }
  for (const { i } of tiles) {
    base.ways.forEach((wy, j) =>
      out.way(
        i * TILE_IDS + j + 1,
        wy.refs.map((x) => nodeId(i, x)),
        wy.tags,
      ),
    );
  }
  // Connector roads across each shared border: band b of one tile's east (north) side to the next tile's west
  // (south) side, where both have a node.
  let c = 0;
  for (const { i, tx, ty } of tiles) {
    for (const [dx, dy, from, to] of [
      [1, 0, 1, 0],
      [0, 1, 3, 2],
    ] as const) {
      if (tx + dx >= k || ty + dy >= k) continue;
      const j = (ty + dy) * k + tx + dx;
      for (let b = 0; b < CONNECTORS; b++) {
        const p = base.border[from]![b]!,
          q = base.border[to]![b]!;
        c++;
        if (p < 0 || q < 0) continue;
        out.way(k * k * TILE_IDS + c, [nodeId(i, p), nodeId(j, q)], {
          highway: 'primary',
          name: `Quốc lộ ${1 + (c % 60)}`,
        });
      }
    }
  }
  for (const { i } of tiles) {
    base.relations.forEach((r, j) => {
      const members: Member[] = r.members.map((m) => ({
        type: m.type,
        role: m.role,
        ref: m.type === 'node' ? nodeId(i, m.ref) : i * TILE_IDS + m.ref + 1,
      }));
      out.relation(i * TILE_IDS + j + 1, members, r.tags);
    });
  }
  out.close();
  renameSync(tmp, file);
  return { file, tiles: k * k, ...counts, bytes: out.bytes };
}

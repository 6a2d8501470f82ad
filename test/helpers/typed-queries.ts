/**
 * The hand-written typed-query evaluation (test/fixtures/places/typed-queries.tsv): reads the fixture, finds the truth
 * of every expected element in the pack's OSM input files (independently of any pack), runs the queries through the
 * public engine API and scores the answers. Used by test/places-typed.test.ts and bench/places.ts.
 */
import { readFileSync } from 'node:fs';
import { createEngine, type Engine } from '../../src/engine';
import { haversine } from '../../src/geo';
import { fold } from '../../src/places/text/fold';
import { OSM, PACK_INPUTS, testPack } from './packs';

/** Packs the fixture uses. */
const TYPED_PACKS = ['hanoi', 'hcmc', 'dalat'] as const;
export type TypedPack = (typeof TYPED_PACKS)[number];

/** An engine per pack of the fixture (built from the real data by testPack). */
export async function typedEngines(opts: { wasm?: boolean } = {}): Promise<Record<TypedPack, Engine>> {
  const entries = await Promise.all(
    TYPED_PACKS.map(async (p) => [p, await createEngine({ packs: [testPack(p)], wasm: opts.wasm })] as const),
  );
  return Object.fromEntries(entries) as Record<TypedPack, Engine>;
}

/** What a query should give. */
type Expectation =
  | { kind: 'osm'; ref: string }
  | { kind: 'street' | 'unit'; name: string }
  | { kind: 'none'; at: [number, number] }
  | { kind: 'partial'; name: string; at: [number, number] };

/** One fixture line. */
export interface TypedQuery {
  query: string;
  pack: TypedPack;
  tags: string[];
  expect: Expectation;
}

/** How an answer scored: right, wrong-but-honest (NOT_FOUND, a partial answer, another place nearby), or confidently wrong. */
type Verdict = 'hit' | 'miss' | 'wrong';

/** One scored query. */
export interface TypedResult extends TypedQuery {
  verdict: Verdict;
  /** What came back: status and the top result's formatted address, partial flag and distance to the truth. */
  got: string;
}

const FIXTURE = new URL('../fixtures/places/typed-queries.tsv', import.meta.url);
const at = (s: string): [number, number] => s.split(',').map(Number) as [number, number];

/** The fixture's queries. */
export function typedQueries(): TypedQuery[] {
  const out: TypedQuery[] = [];
  for (const line of readFileSync(FIXTURE, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [query, pack, tags, expect] = line.split('\t');
    if (!query || !(TYPED_PACKS as readonly string[]).includes(pack ?? '') || !tags || !expect)
      throw new Error(`typed-queries.tsv: bad line "${line}"`);
    const [what, rest] = [
      expect.slice(0, expect.indexOf(':') < 0 ? expect.length : expect.indexOf(':')),
      expect.slice(expect.indexOf(':') + 1),
    ];
    let e: Expectation;
    if (what === 'osm') e = { kind: 'osm', ref: rest };
    else if (what === 'street' || what === 'unit') e = { kind: what, name: rest };
    else if (expect.startsWith('none@')) e = { kind: 'none', at: at(expect.slice(5)) };
    else if (what === 'partial') e = { kind: 'partial', name: rest.split('@')[0]!, at: at(rest.split('@')[1]!) };
    else throw new Error(`typed-queries.tsv: bad expectation "${expect}"`);
    out.push({ query, pack: pack as TypedPack, tags: tags.split(','), expect: e });
  }
  return out;
}

/** A GeoJSON input's features, read independently of the builder: OSM id (when given), point (lat, lon), names. */
function geoJsonPlaces(file: string): { ref: string | null; at: [number, number]; names: string[] }[] {
  const doc = JSON.parse(readFileSync(OSM + file, 'utf8')) as {
    features: { geometry: { type: string; coordinates: [number, number] }; properties: Record<string, unknown> }[];
  };
  return doc.features.map((f) => {
    if (f.geometry.type !== 'Point') throw new Error(`${file}: only Point features are read here`);
    const [lon, lat] = f.geometry.coordinates;
    const names = Object.entries(f.properties)
      .filter(([k, v]) => /^name([:_]|$)/.test(k) && typeof v === 'string')
      .map(([, v]) => v as string);
    const osmId = f.properties.osm_id;
    return { ref: typeof osmId === 'string' ? osmId : null, at: [lat, lon], names };
  });
}

/** Positions of the elements of a pack's input files, by "type/id": nodes as given, ways and relations by their centre. */
function elementPositions(pack: TypedPack): Map<string, [number, number]> {
  const nodes = new Map<string, [number, number]>();
  const out = new Map<string, [number, number]>();
  const mean = (pts: Array<[number, number] | undefined>): [number, number] | undefined => {
    const ok = pts.filter((p): p is [number, number] => !!p);
    return ok.length
      ? [ok.reduce((s, p) => s + p[0], 0) / ok.length, ok.reduce((s, p) => s + p[1], 0) / ok.length]
      : undefined;
  };
  const ways = new Map<string, string[]>();
  for (const file of PACK_INPUTS[pack]) {
    if (file.endsWith('.geojson')) {
      for (const p of geoJsonPlaces(file)) if (p.ref) out.set(p.ref, p.at);
      continue;
    }
    const text = readFileSync(OSM + file, 'utf8');
    if (file.endsWith('.json')) {
      const elements = JSON.parse(text).elements as Array<{
        type: string;
        id: number;
        lat?: number;
        lon?: number;
        center?: { lat: number; lon: number };
        nodes?: number[];
        members?: Array<{ type: string; ref: number }>;
      }>;
      for (const e of elements)
        if (e.type === 'node' && e.lat !== undefined) nodes.set(`node/${e.id}`, [e.lat, e.lon!]);
      for (const e of elements) {
        if (e.type === 'node') out.set(`node/${e.id}`, nodes.get(`node/${e.id}`)!);
        else if (e.center) out.set(`${e.type}/${e.id}`, [e.center.lat, e.center.lon]);
        else if (e.nodes) {
          ways.set(
            `way/${e.id}`,
            e.nodes.map((n) => `node/${n}`),
          );
          const c = mean([...new Set(e.nodes)].map((n) => nodes.get(`node/${n}`)));
          if (c) out.set(`way/${e.id}`, c);
        }
      }
    } else {
      for (const m of text.matchAll(/<node id="(\d+)"[^>]*?lat="([-\d.]+)" lon="([-\d.]+)"/g))
        nodes.set(`node/${m[1]}`, [Number(m[2]), Number(m[3])]);
      for (const [k, v] of nodes) out.set(k, v);
      for (const m of text.matchAll(/<way id="(\d+)"[^>]*>([\s\S]*?)<\/way>/g)) {
        const refs = [...new Set([...m[2]!.matchAll(/<nd ref="(\d+)"\/>/g)].map((r) => `node/${r[1]}`))];
        ways.set(`way/${m[1]}`, refs);
        const c = mean(refs.map((r) => nodes.get(r)));
        if (c) out.set(`way/${m[1]}`, c);
      }
      for (const m of text.matchAll(/<relation id="(\d+)"[^>]*>([\s\S]*?)<\/relation>/g)) {
        const refs = [...m[2]!.matchAll(/<member type="way" ref="(\d+)"/g)].flatMap(
          (r) => ways.get(`way/${r[1]}`) ?? [],
        );
        const c = mean([...new Set(refs)].map((r) => nodes.get(r)));
        if (c) out.set(`relation/${m[1]}`, c);
      }
    }
  }
  return out;
}

const positions = new Map<TypedPack, Map<string, [number, number]>>();

/** The truth position of an `osm` expectation, read from the pack's inputs. Throws when the element is not there. */
function truthOf(pack: TypedPack, ref: string): [number, number] {
  let p = positions.get(pack);
  if (!p) positions.set(pack, (p = elementPositions(pack)));
  const pos = p.get(ref);
  if (!pos) throw new Error(`typed-queries.tsv: ${ref} is not an element of the ${pack} inputs`);
  return pos;
}

/** Metres within which an answer counts as the place asked for, and beyond which a confident answer is wrong. */
export const HIT_METRES = 150;
const WRONG_METRES = 500;

/** Runs the fixture on engines (one per pack) and scores every query. */
export function runTypedQueries(engines: Record<TypedPack, Engine>, queries = typedQueries()): TypedResult[] {
  return queries.map((q) => {
    const r = engines[q.pack].geocode({ address: q.query });
    const top = r.status === 'OK' ? r.results[0] : undefined;
    const partial = top?.partial_match === true;
    const first = top?.address_components[0]?.long_name;
    const dist = (p: [number, number]) =>
      top ? haversine(top.geometry.location.lat, top.geometry.location.lng, p[0], p[1]) : Infinity;
    const e = q.expect;
    let verdict: Verdict;
    let metres = Infinity;
    if (e.kind === 'osm') {
      metres = dist(truthOf(q.pack, e.ref));
      verdict = !top ? 'miss' : metres <= HIT_METRES ? 'hit' : !partial && metres > WRONG_METRES ? 'wrong' : 'miss';
    } else if (e.kind === 'street' || e.kind === 'unit') {
      const onIt = top?.address_components.some((c) => c.long_name === e.name);
      verdict = !top ? 'miss' : !partial && first === e.name ? 'hit' : partial || onIt ? 'miss' : 'wrong';
    } else if (e.kind === 'none') {
      metres = dist(e.at);
      verdict = !top ? 'hit' : partial || metres <= HIT_METRES ? 'miss' : 'wrong';
    } else if (e.kind === 'partial') {
      metres = dist(e.at);
      verdict = !top
        ? 'miss'
        : partial && first === e.name
          ? 'hit'
          : partial || metres <= HIT_METRES
            ? 'miss'
            : 'wrong';
    } else throw new Error('unreachable');
    const got = top
      ? `${partial ? '[partial] ' : ''}${top.formatted_address}${Number.isFinite(metres) ? ` (${Math.round(metres)} m)` : ''}`
      : r.status;
    return { ...q, verdict, got };
  });
}

/** Rates over the results: recall within HIT_METRES of the element queries, hits over all, confidently wrong over all. */
export function typedSummary(results: readonly TypedResult[]): {
  queries: number;
  recall: number;
  hits: number;
  wrong: number;
  byTag: Record<string, { n: number; hits: number; wrong: number }>;
} {
  const elements = results.filter((r) => r.expect.kind === 'osm');
  const byTag: Record<string, { n: number; hits: number; wrong: number }> = {};
  for (const r of results) {
    for (const t of r.tags) {
      const s = (byTag[t] ??= { n: 0, hits: 0, wrong: 0 });
      s.n++;
      if (r.verdict === 'hit') s.hits++;
      if (r.verdict === 'wrong') s.wrong++;
    }
  }
  return {
    queries: results.length,
    recall: elements.filter((r) => r.verdict === 'hit').length / Math.max(1, elements.length),
    hits: results.filter((r) => r.verdict === 'hit').length / Math.max(1, results.length),
    wrong: results.filter((r) => r.verdict === 'wrong').length / Math.max(1, results.length),
    byTag,
  };
}

/**
 * The names of the fixture's absent landmarks that some place of the inputs does carry (should be none): the names
 * (every name tag) of elements that are not roads, routes or railway lines, folded, holding the landmark's name as
 * whole words.
 */
export function absentButPresent(queries = typedQueries()): string[] {
  const names = new Map<TypedPack, string[]>();
  const namesOf = (pack: TypedPack): string[] => {
    let list = names.get(pack);
    if (list) return list;
    list = [];
    const keep = (tags: Record<string, string>) => {
      if (
        tags.highway ||
        tags.type === 'route' ||
        tags.type === 'route_master' ||
        /^(rail|subway|light_rail|construction|proposed)$/.test(tags.railway ?? '')
      )
        return;
      for (const [k, v] of Object.entries(tags))
        if (/^(name|alt_name|official_name|old_name|short_name)(:|$)/.test(k)) list!.push(` ${fold(v)} `);
    };
    for (const f of PACK_INPUTS[pack]) {
      if (f.endsWith('.geojson')) {
        for (const p of geoJsonPlaces(f)) list.push(...p.names.map((n) => ` ${fold(n)} `));
        continue;
      }
      const text = readFileSync(OSM + f, 'utf8');
      if (f.endsWith('.json')) for (const e of JSON.parse(text).elements) keep(e.tags ?? {});
      else {
        for (const m of text.matchAll(/<(node|way|relation) [^>]*?(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
          const tags = Object.fromEntries(
            [...(m[2] ?? '').matchAll(/<tag k="([^"]*)" v="([^"]*)"\/>/g)].map((t) => [
              t[1]!,
              t[2]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&'),
            ]),
          );
          keep(tags);
        }
      }
    }
    names.set(pack, list);
    return list;
  };
  return queries
    .filter((q) => q.tags.includes('absent'))
    .map((q) => q.query.split(',')[0]!)
    .filter((name) => TYPED_PACKS.some((pack) => namesOf(pack).some((n) => n.includes(` ${fold(name)} `))));
}

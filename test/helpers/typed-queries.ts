/**
 * The hand-written typed-query evaluation (every .tsv file of test/fixtures/places/): reads the fixtures, finds the
 * truth of every expected element in the pack's OSM input files (independently of any pack), runs the queries
 * through the public engine API and scores the answers. Used by test/places-typed.test.ts and bench/places.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readOsmFile } from '../../data-tools/osm/read';
import { createEngine, type Engine } from '../../src/engine';
import { haversine } from '../../src/geo';
import { fold } from '../../src/places/text/fold';
import { OSM, PACK_INPUTS, testPack } from './packs';
import { inPart, segmentDistance } from './ward-reference';

/** Packs the fixtures use. */
const TYPED_PACKS = ['hanoi', 'hcmc', 'dalat', 'hcmc-city'] as const;
export type TypedPack = (typeof TYPED_PACKS)[number];

/** An engine per pack of the fixtures (built from the real data by testPack). */
export async function typedEngines(opts: { wasm?: boolean } = {}): Promise<Record<TypedPack, Engine>> {
  const entries: Array<readonly [TypedPack, Engine]> = [];
  // One after the other: building a pack the first time takes the whole machine.
  for (const p of TYPED_PACKS) entries.push([p, await createEngine({ packs: [testPack(p)], wasm: opts.wasm })]);
  return Object.fromEntries(entries) as Record<TypedPack, Engine>;
}

/** What a query should give. */
type Expectation =
  | { kind: 'osm'; refs: string[] }
  | { kind: 'street' | 'unit'; name: string }
  | { kind: 'none' | 'nothere'; at: [number, number] }
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
  /** For an element: whether one of the first five autocomplete predictions for the whole query lies within HIT_METRES. */
  autocomplete?: boolean;
}

const FIXTURES = new URL('../fixtures/places/', import.meta.url);
const at = (s: string): [number, number] => s.split(',').map(Number) as [number, number];

/** The queries of every fixture file (test/fixtures/places/*.tsv; the format is in typed-queries.tsv's header). */
export function typedQueries(): TypedQuery[] {
  const out: TypedQuery[] = [];
  for (const file of readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.tsv'))
    .sort()) {
    for (const line of readFileSync(new URL(file, FIXTURES), 'utf8').split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      const [query, pack, tags, expect] = line.split('\t');
      if (!query || !(TYPED_PACKS as readonly string[]).includes(pack ?? '') || !tags || !expect)
        throw new Error(`${file}: bad line "${line}"`);
      const colon = expect.indexOf(':');
      const [what, rest] = [expect.slice(0, colon < 0 ? expect.length : colon), expect.slice(colon + 1)];
      let e: Expectation;
      if (what === 'osm') e = { kind: 'osm', refs: rest.split('|') };
      else if (what === 'street' || what === 'unit') e = { kind: what, name: rest };
      else if (expect.startsWith('none@')) e = { kind: 'none', at: at(expect.slice(5)) };
      else if (expect.startsWith('nothere@')) e = { kind: 'nothere', at: at(expect.slice(8)) };
      else if (what === 'partial') e = { kind: 'partial', name: rest.split('@')[0]!, at: at(rest.split('@')[1]!) };
      else throw new Error(`${file}: bad expectation "${expect}"`);
      out.push({ query, pack: pack as TypedPack, tags: tags.split(','), expect: e });
    }
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

/**
 * Where the elements of a pack's input files are, by "type/id", as lines of [lat, lon] points: a node its point; a way
 * its nodes in order (an answer on a long street or by a large park is near the way, wherever its mean lies), or the
 * centre an input gives; a relation its member ways' lines (an answer anywhere on a river's water area is on the
 * river), or its given centre when no member's nodes are known; a GeoJSON feature with an OSM id its own point (it
 * stands for that element).
 */
function elementPositions(pack: TypedPack): Map<string, [number, number][][]> {
  const nodes = new Map<number, [number, number]>();
  const ways = new Map<number, number[]>();
  const centres = new Map<string, [number, number]>();
  const relations = new Map<number, number[]>();
  const features = new Map<string, [number, number]>();
  for (const file of PACK_INPUTS[pack]) {
    if (file.endsWith('.geojson')) {
      for (const f of geoJsonPlaces(file)) if (f.ref) features.set(f.ref, f.at);
      continue;
    }
    readOsmFile(OSM + file, {
      node: (id, lat, lon) => void nodes.set(id, [lat, lon]),
      feature: () => undefined, // GeoJSON inputs are read above
      way: (id, refs, _tags, c) => {
        ways.set(id, refs);
        if (c) centres.set(`way/${id}`, [c.lat, c.lon]);
      },
      relation: (id, members, _tags, c) => {
        relations.set(
          id,
          members.filter((m) => m.type === 'way').map((m) => m.ref),
        );
        if (c) centres.set(`relation/${id}`, [c.lat, c.lon]);
      },
    });
  }
  const lineOf = (refs: readonly number[]) => refs.map((r) => nodes.get(r)).filter((p) => p !== undefined);
  const out = new Map<string, [number, number][][]>();
  for (const [id, p] of nodes) out.set(`node/${id}`, [[p]]);
  for (const [id, refs] of ways) {
    const given = centres.get(`way/${id}`);
    const line = lineOf(refs);
    if (given || line.length > 0) out.set(`way/${id}`, [given ? [given] : line]);
  }
  for (const [id, members] of relations) {
    const lines = members.map((w) => lineOf(ways.get(w) ?? [])).filter((line) => line.length > 0);
    const given = centres.get(`relation/${id}`);
    if (lines.length > 0) out.set(`relation/${id}`, lines);
    else if (given) out.set(`relation/${id}`, [[given]]);
  }
  for (const [ref, at] of features) out.set(ref, [[at]]);
  return out;
}

/**
 * Metres from a point to a line of points (to its nearest segment, on a plane tangent at the point); 0 inside a closed
 * line (an area: a park, a campus, a market's building).
 */
export function metresToLine(lat: number, lng: number, line: readonly [number, number][]): number {
  const my = 111_320,
    mx = my * Math.cos((lat * Math.PI) / 180);
  const xy = line.map((p) => [(p[1] - lng) * mx, (p[0] - lat) * my]);
  const first = line[0]!,
    last = line[line.length - 1]!;
  if (line.length > 3 && first[0] === last[0] && first[1] === last[1] && inPart([xy], 0, 0)) return 0;
  let best = Infinity;
  for (let i = 0; i < xy.length; i++) {
    const [ax, ay] = xy[i]!;
    const [bx, by] = xy[Math.min(i + 1, xy.length - 1)]!;
    best = Math.min(best, segmentDistance(ax!, ay!, bx!, by!));
  }
  return best;
}

const positions = new Map<TypedPack, Map<string, [number, number][][]>>();

/** Where an element of a pack's inputs is (elementPositions). Throws when the element is not there. */
function truthOf(pack: TypedPack, ref: string): [number, number][][] {
  let p = positions.get(pack);
  if (!p) positions.set(pack, (p = elementPositions(pack)));
  const pos = p.get(ref);
  if (!pos) throw new Error(`typed queries: ${ref} is not an element of the ${pack} inputs`);
  return pos;
}

/** Metres within which an answer counts as the place asked for, and beyond which a confident answer is wrong. */
export const HIT_METRES = 150;
const WRONG_METRES = 500;

/**
 * The lines whose truth is a place of the inputs, each cut at `share` of its characters (at least four): text as it is
 * while being typed, for autocomplete.
 */
export function typingCuts(share: number, queries = typedQueries()): TypedQuery[] {
  return queries
    .filter((q) => q.expect.kind === 'osm')
    .map((q) => ({ ...q, query: q.query.slice(0, Math.max(4, Math.round(q.query.length * share))).trimEnd() }));
}

/** Runs the fixture on engines (one per pack) and scores every query. */
export function runTypedQueries(engines: Record<TypedPack, Engine>, queries = typedQueries()): TypedResult[] {
  return queries.map((q) => {
    const r = engines[q.pack].geocode({ address: q.query });
    const top = r.status === 'OK' ? r.results[0] : undefined;
    const partial = top?.partial_match === true;
    const first = top?.address_components[0]?.long_name ?? '';
    const dist = (p: [number, number]) =>
      top ? haversine(top.geometry.location.lat, top.geometry.location.lng, p[0], p[1]) : Infinity;
    const distToLines = (lines: [number, number][][]) =>
      top
        ? Math.min(...lines.map((line) => metresToLine(top.geometry.location.lat, top.geometry.location.lng, line)))
        : Infinity;
    // Whether the answer stands on the named street or unit (a partial answer may lead with a house number).
    const onIt = (name: string) => top?.address_components.some((c) => sameName(c.long_name, name)) === true;
    const e = q.expect;
    let verdict: Verdict;
    let metres = Infinity;
    if (e.kind === 'osm') {
      metres = Math.min(...e.refs.map((ref) => distToLines(truthOf(q.pack, ref))));
      verdict = !top ? 'miss' : metres <= HIT_METRES ? 'hit' : !partial && metres > WRONG_METRES ? 'wrong' : 'miss';
    } else if (e.kind === 'street' || e.kind === 'unit') {
      verdict = !top
        ? 'miss'
        : !partial && sameName(first, e.name)
          ? 'hit'
          : partial || onIt(e.name)
            ? 'miss'
            : 'wrong';
    } else if (e.kind === 'none' || e.kind === 'nothere') {
      metres = dist(e.at);
      verdict = !top || (partial && e.kind === 'nothere') ? 'hit' : partial || metres <= HIT_METRES ? 'miss' : 'wrong';
    } else if (e.kind === 'partial') {
      metres = dist(e.at);
      verdict = !top ? 'miss' : partial && onIt(e.name) ? 'hit' : partial || metres <= HIT_METRES ? 'miss' : 'wrong';
    } else throw new Error('unreachable');
    const got = top
      ? `${partial ? '[partial] ' : ''}${top.formatted_address}${Number.isFinite(metres) ? ` (${Math.round(metres)} m)` : ''}`
      : r.status;
    if (e.kind !== 'osm') return { ...q, verdict, got };
    const truths = e.refs.flatMap((ref) => truthOf(q.pack, ref));
    const predictions = engines[q.pack].autocomplete({ input: q.query, limit: 5 }).predictions;
    const autocomplete = predictions.some((p) => {
      const at = engines[q.pack].placeDetail({ place_id: p.place_id }).result.geometry?.location;
      return at !== undefined && truths.some((t) => metresToLine(at.lat, at.lng, t) <= HIT_METRES);
    });
    return { ...q, verdict, got, autocomplete };
  });
}

/**
 * Whether a shown name is the expected one (`a|b|…`: any of them), spelt either way Vietnamese places tone marks
 * ("Hòa"/"Hoà") and with either capital D with stroke ("Đ"/"Ð", which OSM data mixes up).
 */
function sameName(shown: string, expected: string): boolean {
  const key = (s: string) =>
    s
      .replace(/Ð/g, 'Đ')
      .normalize('NFD')
      .split(/\s+/)
      .map((w) => {
        const tones = w.replace(/[^\u0300\u0301\u0303\u0309\u0323]/g, '');
        return w.replace(/[\u0300\u0301\u0303\u0309\u0323]/g, '') + tones;
      })
      .join(' ')
      .toLowerCase();
  return expected.split('|').some((e) => key(e) === key(shown));
}

/** Rates over the results: recall within HIT_METRES of the element queries, hits over all, confidently wrong over all. */
export function typedSummary(results: readonly TypedResult[]): {
  queries: number;
  recall: number;
  /** Elements found among the first five autocomplete predictions (whole query typed). */
  autocomplete: number;
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
    autocomplete: elements.filter((r) => r.autocomplete).length / Math.max(1, elements.length),
    hits: results.filter((r) => r.verdict === 'hit').length / Math.max(1, results.length),
    wrong: results.filter((r) => r.verdict === 'wrong').length / Math.max(1, results.length),
    byTag,
  };
}

/**
 * The fixtures' absent landmarks ("pack: query") that some place of their pack's inputs does carry (should be none):
 * the names (every name tag) of elements that are not roads, routes or railway lines, folded, holding the landmark's
 * name (the query up to its first comma) as whole words.
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
      if (f.endsWith('.geojson')) list.push(...geoJsonPlaces(f).flatMap((p) => p.names.map((n) => ` ${fold(n)} `)));
      else
        readOsmFile(OSM + f, {
          node: (_id, _lat, _lon, tags) => tags && keep(tags),
          feature: () => undefined, // GeoJSON inputs are read above
          way: (_id, _refs, tags) => keep(tags),
          relation: (_id, _members, tags) => keep(tags),
        });
    }
    names.set(pack, list);
    return list;
  };
  return queries
    .filter((q) => q.tags.includes('absent'))
    .filter((q) => namesOf(q.pack).some((n) => n.includes(` ${fold(q.query.split(',')[0]!)} `)))
    .map((q) => `${q.pack}: ${q.query}`);
}

/**
 * Our place search (src/places/search: PlaceIndex and the geocoder over it) against flexsearch 0.8 on the same places
 * and the same queries: the generated evaluation of bench/places.ts (place-cases.ts) on the Hanoi pack (or the packs
 * given as arguments). Measured side by side in one run: index build time (median of 5 builds), index size (heap
 * growth while the index is held, after a full GC), query time p50/p99 (full queries, and every prefix of a sample
 * of queries as typed; the contenders interleaved query by query) and top-1 / top-5 hits (the expected place or one
 * within 50 m).
 *
 * Our side twice: the engine's whole forward geocoder (query parsing, admin reading, ranking, formatting the answer;
 * autocomplete for the typed prefixes), and its index searched alone (Searcher: every query word looked up, ranked,
 * no parsing or admin agreement), the counterpart of a flexsearch lookup. flexsearch gets each place as one text,
 * its name first, then its house number and street, then its ward, district and province names, legacy and 2025
 * (the texts our index holds, in the order of our field weights: flexsearch scores earlier terms higher), with:
 * - encoder Charset.Normalize (lower case, marks folded) plus a mapper đ→d: flexsearch folds diacritics by Unicode
 *   decomposition, and đ does not decompose, so "Đường" would not meet "duong" (our folding maps it too);
 * - resolution 2·⌊√(most words in one text)⌋, flexsearch's own formula for a well-balanced resolution;
 * - search with suggest: true (a place matching most query words still ranks; without it one word flexsearch cannot
 *   match, an abbreviation or a typo, returns nothing) and limit 5;
 * - six variants: tokenize "forward" (prefixes, what autocomplete needs); "strict" (whole words) with a context index
 *   (depth 1, bidirectional, context resolution 3: neighbouring words score as a phrase; flexsearch supports the
 *   context index with "strict" only); "forward" with the phonetic LatinBalance encoder (typos tolerated by sound);
 *   "tolerant" (typo variants of whole words, no prefixes); "full" (every substring); and a Document with name,
 *   address and admin as separate fields ("forward"), the fields' results merged.
 * Run: npx tsx bench/places-index.ts [--sample fraction] [pack ...] (--sample: query a seeded random fraction of the
 * generated cases, for a loaded machine; every contender gets the same ones)
 */
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Charset, Document, Encoder, Index, type IndexOptions } from 'flexsearch';
import { createEngine } from '../src/engine';
import { placeTexts, PlaceIndex } from '../src/places/search/index';
import { termsOf } from '../src/places/search/terms';
import type { PlacesRegion } from '../src/places/region-places';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { hitsPlace, isHit, placeCases, type Case } from './place-cases';
import { median, quantile, table } from './stats.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const args = process.argv.slice(2);
const sampleAt = args.indexOf('--sample');
const sample = sampleAt >= 0 ? Number(args.splice(sampleAt, 2)[1]) : 1;
if (!(sample > 0 && sample <= 1)) throw new RangeError('--sample must be a fraction in (0, 1]');
const packs = args;
const engine = await createEngine({
  packs: packs.length ? packs : [fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url))],
});
const state = engine.places;
const keep = rng(3);
const cases = placeCases(state, rng(42)).filter(() => keep() < sample);

/** Every place of every region, numbered globally (flexsearch ids): region and place number. */
/** A place as flexsearch indexes it: one text, or (Document) three fields. */
interface FlexPlace {
  region: PlacesRegion;
  place: number;
  text: string;
  main: string;
  address: string;
  admin: string;
}
const places: FlexPlace[] = [];
for (const region of state.regions) {
  for (let place = 0; place < region.places.count; place++) {
    const t = placeTexts(region.places, region.region.strings, region.admin, place);
    const admin = t.admin.join(' ');
    places.push({ region, place, main: t.main, address: t.address, admin, text: [t.main, t.address, admin].join(' ') });
  }
}

/** A contender: builds its index (kept by the closure) and answers a query with up to 5 ranked results. */
interface Contender {
  name: string;
  /** Builds the index (absent: the row searches an index built by another row). */
  build?(): void;
  /** Lets go of the index (to measure the next build's size alone). */
  drop?(): void;
  /** Ranked results: global place numbers (flexsearch), place ids (geocoder), [region, place] (Searcher). */
  search(query: string): readonly unknown[];
  hit(c: Case, result: unknown): boolean;
  /** Our autocomplete, for the typed-prefix times (the same search otherwise). */
  typed?(query: string): unknown;
}

const encoder = (charset: typeof Charset.Normalize) => new Encoder(charset).assign({ mapper: new Map([['đ', 'd']]) });
const mostWords = Math.max(...places.map((p) => encoder(Charset.Normalize).encode(p.text).length));
const resolution = 2 * Math.floor(Math.sqrt(mostWords));
const flexHit = (c: Case, id: unknown): boolean => {
  const p = places[id as number]!;
  return hitsPlace(c, p.region, p.place);
};

function flexIndex(name: string, options: IndexOptions): Contender {
  let index: Index | undefined;
  return {
    name,
    build() {
      index = new Index(options);
      places.forEach((p, id) => index!.add(id, p.text));
    },
    drop: () => (index = undefined),
    search: (query) => index!.search(query, { limit: 5, suggest: true }) as number[],
    hit: flexHit,
  };
}

function flexDocument(name: string): Contender {
  let doc: Document | undefined;
  return {
    name,
    build() {
      doc = new Document({
        document: { id: 'id', index: ['main', 'address', 'admin'] },
        tokenize: 'forward',
        resolution,
        encoder: encoder(Charset.Normalize),
      });
      places.forEach((p, id) => doc!.add({ id, main: p.main, address: p.address, admin: p.admin }));
    },
    drop: () => (doc = undefined),
    search: (query) =>
      (doc!.search(query, { limit: 5, suggest: true, merge: true }) as unknown as { id: number }[]).map((r) => r.id),
    hit: flexHit,
  };
}

let ours: PlaceIndex[] = [];
const contenders: Contender[] = [
  {
    name: 'ours (PlaceIndex; geocoder)',
    build() {
      ours = state.regions.map((r) => new PlaceIndex(r.places, r.region.strings, r.admin));
    },
    drop: () => (ours = []),
    search: (query) =>
      engine
        .geocode({ address: query })
        .results.slice(0, 5)
        .map((r) => r.place_id),
    hit: (c, id) => isHit(state, c, id as string),
    typed: (query) => engine.autocomplete({ input: query }),
  },
  {
    // The index and its ranked search alone, as the geocoder calls it but without query parsing, admin agreement or
    // boosts: the counterpart of a flexsearch lookup. Regions are searched in turn and merged by score.
    name: 'ours (Searcher alone)',
    search: (query) => searchAlone(query, false),
    hit: (c, result) => {
      const [k, place] = result as [number, number];
      return hitsPlace(c, state.regions[k]!, place);
    },
    typed: (query) => searchAlone(query, true),
  },
  flexIndex('flexsearch forward', { tokenize: 'forward', resolution, encoder: encoder(Charset.Normalize) }),
  flexIndex('flexsearch strict + context', {
    tokenize: 'strict',
    resolution,
    context: { depth: 1, bidirectional: true, resolution: 3 },
    encoder: encoder(Charset.Normalize),
  }),
  flexIndex('flexsearch forward, LatinBalance', {
    tokenize: 'forward',
    resolution,
    encoder: encoder(Charset.LatinBalance),
  }),
  flexIndex('flexsearch tolerant', { tokenize: 'tolerant', resolution, encoder: encoder(Charset.Normalize) }),
  flexIndex('flexsearch full', { tokenize: 'full', resolution, encoder: encoder(Charset.Normalize) }),
  flexDocument('flexsearch document (3 fields)'),
];

/** Our Searcher over every region: the best 5 hits as [region index, place]. */
function searchAlone(query: string, prefix: boolean): [number, number][] {
  const terms = termsOf(query);
  // No word required (the counterpart of flexsearch's suggest: a place matching most words still ranks).
  const options = { prefix, limit: 5, required: 0 };
  return state.regions
    .flatMap((r, k) => {
      const hits = r.searcher.search(terms, { ...options, importance: r.places.importance });
      return hits.map((h) => ({ ...h, k }));
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map((h) => [h.k, h.place]);
}

const heapBytes = (): number => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

// Build times (interleaved, median of 5); then each index's size alone: the heap it adds with no other index held.
const built = contenders.filter((c) => c.build && c.drop);
const builds = new Map<string, number[]>(built.map((c) => [c.name, []]));
for (let round = 0; round < 5; round++) {
  for (const c of built) {
    const t = performance.now();
    c.build!();
    builds.get(c.name)!.push(performance.now() - t);
  }
}
const sizes = new Map<string, number>();
for (const c of built) c.drop!();
for (const c of built) {
  const before = heapBytes();
  c.build!();
  sizes.set(c.name, heapBytes() - before);
  c.drop!();
}
for (const c of built) c.build!();

// Full queries, the contenders interleaved (the order rotating) so load and cache affect all alike.
const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
const hits = new Map<string, { top1: number; top5: number; byKind: Map<string, number> }>(
  contenders.map((c) => [c.name, { top1: 0, top5: 0, byKind: new Map() }]),
);
cases.forEach((c, i) => {
  for (let k = 0; k < contenders.length; k++) {
    const contender = contenders[(i + k) % contenders.length]!;
    const t = performance.now();
    const results = contender.search(c.query);
    times.get(contender.name)!.push(performance.now() - t);
    const h = hits.get(contender.name)!;
    if (results.length > 0 && contender.hit(c, results[0]!)) {
      h.top1++;
      h.byKind.set(c.kind, (h.byKind.get(c.kind) ?? 0) + 1);
    }
    if (results.some((r) => contender.hit(c, r))) h.top5++;
  }
});

// Every prefix of a sample of queries, as typed (ours: autocomplete).
const rand = rng(7);
const typedQueries = cases
  .filter((c) => c.kind === 'plain' || c.kind === 'new_admin')
  .filter(() => rand() < 0.15)
  .flatMap((c) => Array.from({ length: c.query.length }, (_, n) => c.query.slice(0, n + 1)));
const typed = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
typedQueries.forEach((q, i) => {
  for (let k = 0; k < contenders.length; k++) {
    const contender = contenders[(i + k) % contenders.length]!;
    const t = performance.now();
    if (contender.typed) contender.typed(q);
    else contender.search(q);
    typed.get(contender.name)!.push(performance.now() - t);
  }
});

const pct = (n: number): string => `${((100 * n) / cases.length).toFixed(1)}%`;
const count = places.length;
table(`place search: ${count} places, ${cases.length} generated queries, ${typedQueries.length} typed prefixes`, [
  ...contenders.map((c) => ({
    contender: c.name,
    'build ms': builds.has(c.name) ? median(builds.get(c.name)!) : '-',
    'size MB': sizes.has(c.name) ? sizes.get(c.name)! / 1e6 : '-',
    'query p50 ms': median(times.get(c.name)!),
    'query p99 ms': quantile(times.get(c.name)!, 0.99),
    'typed p50 ms': median(typed.get(c.name)!),
    'typed p99 ms': quantile(typed.get(c.name)!, 0.99),
    'top-1': pct(hits.get(c.name)!.top1),
    'top-5': pct(hits.get(c.name)!.top5),
  })),
]);
const kinds = [...new Set(cases.map((c) => c.kind))];
const perKind = new Map(kinds.map((k) => [k, cases.filter((c) => c.kind === k).length]));
table('top-1 by kind of query', [
  ...contenders.map((c) => ({
    contender: c.name,
    ...Object.fromEntries(
      kinds.map((k) => [k, `${((100 * (hits.get(c.name)!.byKind.get(k) ?? 0)) / perKind.get(k)!).toFixed(1)}%`]),
    ),
  })),
]);
const words = ours.reduce((n, ix) => n + ix.vocab.length, 0);
console.log(
  `(flexsearch resolution ${resolution} = 2·⌊√${mostWords}⌋. Ours: build and size are PlaceIndex's ` +
    `(${words} folded words), the Searcher row searches that index. The machine load applies to all alike.)`,
);

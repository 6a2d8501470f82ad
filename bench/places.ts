/**
 * Place search benchmark on the default Hanoi pack (or the packs given as arguments):
 * - the world check (default run only): hand-written queries (every .tsv of test/fixtures/places) on the whole of
 *   Ho Chi Minh City and on the district packs: recall within 150 m, autocomplete top-5 (also of the place lines cut
 *   at 70 % of their text), confidently-wrong rate, per style; and the ward of reverse results against the official
 *   polygons;
 * - speed: autocomplete as you type (every prefix of sample queries), forward geocode and reverse geocode, p50/p99;
 * - quality: an evaluation set derived from the pack itself: every named place (POI, street, admin unit) and every
 *   address, queried plainly, without diacritics, abbreviated, with one typo, with parts reordered, and with its
 *   legacy and its 2025 admin names; top-1 / top-5 hit rates per perturbation for forward geocode and for
 *   autocomplete. A hit: the expected place, or any result within 50 m of it.
 * - the whole of Ho Chi Minh City (default run, or PLACES_CITY=1): the generated set on a sample of its cases and the
 *   latency of place search at a city's scale (bench/place-latency.ts), over the generated cases and the world
 *   check's queries.
 * Our index against flexsearch on the same cases: bench/places-index.ts.
 * Run: node --expose-gc --import tsx bench/places.ts [pack ...] (QUALITY_ONLY=1 skips the speed of the given packs)
 */
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine } from '../src/engine';
import { PlaceKind } from '../src/places/kinds';
import { mulberry32 as rng } from '../src/trip/rng.js';
import type { PlacesState } from '../src/places/state';
import { isHit, placeCases, type Case } from './place-cases';
import { latencyRows, placeLatency } from './place-latency';
import {
  HIT_METRES,
  runTypedQueries,
  typedEngines,
  typedQueries,
  typedSummary,
  typingCuts,
} from '../test/helpers/typed-queries.js';
import { reverseWardCheck } from '../test/helpers/ward-reference.js';
import { testPack } from '../test/helpers/packs.js';

const packs = process.argv.slice(2);
const engine = await createEngine({
  packs: packs.length ? packs : [fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url))],
});
const t0 = performance.now();
const state = engine.places;
console.log(
  `place index build: ${(performance.now() - t0).toFixed(1)} ms for ${state.regions.map((r) => r.places.count).join(' + ')} places`,
);

const rand = rng(42);

const cases = placeCases(state, rand);

const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** Top-1 / top-5 hit rates of geocode and autocomplete per kind of case (and all typos together); geocode times. */
function quality(engine: Engine, state: PlacesState, cases: Case[], geoTimes: number[] = []) {
  const kinds = [...new Set(cases.map((c) => c.kind))];
  const report: Record<string, Record<string, string>> = {};
  const groups = (kind: string) => [kind, ...(kind.startsWith('typo_') ? ['typo (all)'] : []), 'all'];
  for (const mode of ['geocode', 'autocomplete'] as const) {
    const stats = new Map<string, { n: number; top1: number; top5: number; top1Named: number }>();
    for (const c of cases) {
      const t = performance.now();
      const ids =
        mode === 'geocode'
          ? engine.geocode({ address: c.query }).results.map((x) => x.place_id)
          : engine.autocomplete({ input: c.query, limit: 5 }).predictions.map((x) => x.place_id);
      if (mode === 'geocode') geoTimes.push(performance.now() - t);
      const top1 = ids.length > 0 && isHit(state, c, ids[0]!);
      const top5 = ids.slice(0, 5).some((id) => isHit(state, c, id));
      const named = ids.length > 0 && isHit(state, c, ids[0]!, true);
      for (const g of groups(c.kind)) {
        const s = stats.get(g) ?? { n: 0, top1: 0, top5: 0, top1Named: 0 };
        s.n++;
        s.top1 += +top1;
        s.top5 += +top5;
        s.top1Named += +named;
        stats.set(g, s);
      }
    }
    for (const k of [...kinds, ...(stats.has('typo (all)') ? ['typo (all)'] : []), 'all']) {
      const s = stats.get(k)!;
      report[k] ??= {};
      report[k]![`${mode} top-1`] = `${((100 * s.top1) / s.n).toFixed(1)}%`;
      report[k]![`${mode} top-5`] = `${((100 * s.top5) / s.n).toFixed(1)}%`;
      report[k]![`${mode} top-1 same-name`] = `${((100 * s.top1Named) / s.n).toFixed(1)}%`;
      report[k]!.queries = String(s.n);
    }
  }
  return report;
}

const geoTimes: number[] = [];
const report = quality(engine, state, cases, geoTimes);
console.log(
  '\nQuality (hit: expected place, within 50 m, or a piece of the same street; "same-name": or a place of the same name, kind and ward)',
);
console.table(report);

// Reverse: every POI and address, geocoded at its own point, should be among the first three results.
{
  let n = 0;
  let top3 = 0;
  for (const r of state.regions) {
    for (let i = 0; i < r.places.count; i++) {
      const kind = r.places.kind[i]!;
      if (kind !== PlaceKind.poi && kind !== PlaceKind.address) continue;
      n++;
      const ids = engine
        .geocode({ latlng: `${r.lat(i)},${r.lon(i)}` })
        .results.slice(0, 3)
        .map((x) => x.place_id);
      if (ids.some((id) => isHit(state, { kind: 'reverse', query: '', region: r, place: i }, id))) top3++;
    }
  }
  console.log(
    `\nReverse geocode at each POI and address: top-3 ${((100 * top3) / Math.max(1, n)).toFixed(1)} % of ${n}`,
  );
}

// The world check: hand-written queries (every .tsv of test/fixtures/places) on the whole of Ho Chi Minh City and on
// the district packs, and the ward of reverse results — only when this bench runs on the default pack.
if (packs.length === 0) {
  const engines = await typedEngines();
  const typed = runTypedQueries(engines);
  const sum = typedSummary(typed);
  for (const [set, of] of [
    ['whole HCMC', ['hcmc-city']],
    ['district packs', ['hanoi', 'hcmc', 'dalat']],
  ] as const) {
    const s = typedSummary(typed.filter((r) => (of as readonly string[]).includes(r.pack)));
    console.log(
      `\nWorld check, ${set} (${s.queries} hand-written queries): recall within ${HIT_METRES} m ${(100 * s.recall).toFixed(1)} %, autocomplete top-5 ${(100 * s.autocomplete).toFixed(1)} %, all outcomes right ${(100 * s.hits).toFixed(1)} %, confidently wrong ${(100 * s.wrong).toFixed(1)} %`,
    );
  }
  const typing = runTypedQueries(engines, typingCuts(0.7));
  console.log(
    `While typing (${typing.length} lines whose truth is a place, cut at 70 % of their text): autocomplete top-5 ${((100 * typing.filter((r) => r.autocomplete).length) / typing.length).toFixed(1)} %`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(sum.byTag).map(([tag, t]) => [
        tag,
        { queries: t.n, right: `${((100 * t.hits) / t.n).toFixed(0)} %`, wrong: t.wrong },
      ]),
    ),
  );
  for (const r of typed)
    if (r.verdict !== 'hit') console.log(`  ${r.verdict.padEnd(5)} ${r.pack} ${JSON.stringify(r.query)} → ${r.got}`);
  for (const pack of ['hanoi', 'hcmc'] as const) {
    const w = reverseWardCheck(engines[pack], 1000, 5);
    console.log(
      `Ward of reverse results = polygon ward (${pack}, ${w.points} random points, ${w.results} results): ${(100 * w.rate).toFixed(2)} %`,
    );
  }
}

if (!process.env.QUALITY_ONLY) {
  // Speed: autocomplete on every prefix of a sample of queries, as typed.
  const acTimes: number[] = [];
  const sample = cases.filter((c) => c.kind === 'new_admin' || c.kind === 'plain').filter(() => rand() < 0.15);
  for (const c of sample) {
    for (let n = 1; n <= c.query.length; n++) {
      const t = performance.now();
      engine.autocomplete({ input: c.query.slice(0, n) });
      acTimes.push(performance.now() - t);
    }
  }
  const bbox = state.regions[0]!.region.meta.bbox!;
  const revTimes: number[] = [];
  for (let k = 0; k < 5000; k++) {
    const lat = bbox[1] + rand() * (bbox[3] - bbox[1]);
    const lng = bbox[0] + rand() * (bbox[2] - bbox[0]);
    const t = performance.now();
    engine.geocode({ latlng: `${lat},${lng}` });
    revTimes.push(performance.now() - t);
  }
  console.log('\nSpeed (ms)');
  console.table({
    autocomplete: { calls: acTimes.length, p50: +pct(acTimes, 0.5).toFixed(3), p99: +pct(acTimes, 0.99).toFixed(3) },
    'forward geocode': {
      calls: geoTimes.length,
      p50: +pct(geoTimes, 0.5).toFixed(3),
      p99: +pct(geoTimes, 0.99).toFixed(3),
    },
    'reverse geocode': {
      calls: revTimes.length,
      p50: +pct(revTimes, 0.5).toFixed(3),
      p99: +pct(revTimes, 0.99).toFixed(3),
    },
  });
}

// The whole of Ho Chi Minh City (test/helpers/packs.ts builds it from the 2018 PBF, cached): the generated set on a
// seeded sample of its cases (PLACES_CITY_SAMPLE, default 0.05 of them), then latency: the place machinery's build,
// the first geocode of fresh engines, warm geocodes and autocompletes. Only on the default run, or with PLACES_CITY=1.
if (packs.length === 0 || process.env.PLACES_CITY) {
  const bytes = testPack('hcmc-city');
  const city = await createEngine({ packs: [bytes] });
  const cityState = city.places;
  const pick = rng(7);
  const share = Number(process.env.PLACES_CITY_SAMPLE ?? 0.05);
  const cityCases = placeCases(cityState, rng(42)).filter(() => pick() < share);
  console.log(`\nWhole HCMC (${cityState.regions[0]!.places.count} places): generated set, ${cityCases.length} cases`);
  console.table(quality(city, cityState, cityCases));
  const byKind = (kinds: string[], n: number) => cityCases.filter((c) => kinds.includes(c.kind)).slice(0, n);
  // The generated cases and the hand-written world check's queries (areas, near, house numbers, typos).
  const written = typedQueries()
    .filter((q) => q.pack === 'hcmc-city')
    .map((q) => q.query);
  const lat = await placeLatency(bytes, {
    geocode: [...cityCases.map((c) => c.query), ...written],
    typed: byKind(['plain', 'no_diacritics', 'new_admin'], 400).map((c) => c.query),
    first: cityCases.filter((_, k) => k % Math.max(1, Math.floor(cityCases.length / 12)) === 0).map((c) => c.query),
  });
  console.log(
    `Whole HCMC latency: place machinery built in ${lat.placesBuildMs.toFixed(0)} ms, ` +
      `heap +${lat.placesMb.toFixed(1)} MB (after warm queries +${lat.warmMb.toFixed(1)} MB; NaN: run with --expose-gc)`,
  );
  console.table(latencyRows(lat));
}

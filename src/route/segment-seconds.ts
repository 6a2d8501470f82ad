/**
 * Seconds along an edge as OSRM's extractor counts them (extraction_containers.cpp): each segment between two OSM
 * nodes on its own, its length by the cheap ruler of its latitude band over coordinates rounded to a millionth of a
 * degree, its seconds (length / rate) rounded to whole deciseconds and at least one, the edge's the sum. Summed
 * whole, a way drawn with many nodes costs what OSRM's does, and two routes OSRM weighs alike weigh alike here: a
 * float per edge puts the rounding of each segment into which of them wins.
 */
import type { RoadGraph } from './graph.js';

/** OSRM's latitude bands (CheapRulerContainer): 1,800 over 90°, a ruler at each band's middle. */
const BANDS = 1800;
const BAND = (90 * 1e6) / BANDS;
/** WGS84 (mapbox cheap-ruler): equatorial radius, km, and flattening. */
const RE = 6378.137;
const FE = 1 / 298.257223563;
const E2 = FE * (2 - FE);
const RAD = Math.PI / 180;

/** Per band, its ruler's metres per degree of longitude and of latitude (0: not made yet). */
const rulers = new Float64Array(2 * BANDS);

/** A coordinate as OSRM holds it: millionths of a degree, rounded half away from zero (std::lround). */
function fixed(e7: number): number {
  const x = (e7 / 1e7) * 1e6;
  return x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5);
}

/** Metres between two points in millionths of a degree, as OSRM's greatCircleDistance gives them. */
function segmentMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const mid = Math.trunc((lat1 + lat2) / 2);
  const band = Math.trunc((Math.abs(mid) - 1) / BAND);
  if (rulers[2 * band] === 0) {
    const coslat = Math.cos(((BAND * (band + 0.5)) / 1e6) * RAD);
    const w2 = 1 / (1 - E2 * (1 - coslat * coslat));
    const w = Math.sqrt(w2);
    const mul = RAD * RE * 1000;
    rulers[2 * band] = mul * w * coslat;
    rulers[2 * band + 1] = mul * w * w2 * (1 - E2);
  }
  let dLon = lon1 / 1e6 - lon2 / 1e6;
  if (Math.abs(dLon) > 180) dLon -= 360 * Math.round(dLon / 360);
  const dx = dLon * rulers[2 * band]!,
    dy = (lat1 / 1e6 - lat2 / 1e6) * rulers[2 * band + 1]!;
  return Math.sqrt(dx * dx + dy * dy);
}

/** The lengths of one edge's segments at a time (the last edge read), and seconds over them. */
export class SegmentLengths {
  /** The last edge read (-1: none) and its segment lengths, metres, node to node from its first: metres[0 .. count). */
  edge = -1;
  metres = new Float64Array(64);
  count = 0;

  constructor(private readonly g: RoadGraph) {}

  /** Reads edge e's segments. */
  read(e: number): void {
    const g = this.g;
    const s0 = g.edgeShape.at(e),
      k = g.edgeShape.at(e + 1) - s0;
    if (this.metres.length < k + 1) this.metres = new Float64Array(2 * (k + 1));
    const u = g.edgeNodes[2 * e]!,
      v = g.edgeNodes[2 * e + 1]!;
    let lat = fixed(g.nodeLat[u]!),
      lon = fixed(g.nodeLon[u]!);
    for (let i = 0; i <= k; i++) {
      const nLat = fixed(i < k ? g.shapeLat[s0 + i]! : g.nodeLat[v]!),
        nLon = fixed(i < k ? g.shapeLon[s0 + i]! : g.nodeLon[v]!);
      this.metres[i] = segmentMetres(lat, lon, nLat, nLon);
      lat = nLat;
      lon = nLon;
    }
    this.count = k + 1;
    this.edge = e;
  }

  /** Seconds over the last edge read at `rate` metres per second, OSRM's way: whole deciseconds per segment, ≥ 1. */
  seconds(rate: number): number {
    let ds = 0;
    for (let i = 0; i < this.count; i++) ds += Math.max(1, Math.round((this.metres[i]! / rate) * 10));
    return ds / 10;
  }
}

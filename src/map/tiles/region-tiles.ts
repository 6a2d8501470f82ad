/**
 * Cuts one region's share of a vector tile straight from the pack: the basemap's features found through its grid
 * (the BasemapIndex the static renderer shares: points projected to Web Mercator, Douglas-Peucker significances per part), simplified at the
 * tile's tolerance (vertices whose significance is under it, parts smaller than it), clipped to the buffered tile
 * (lines into pieces, rings along its edges) and written as MVT; named POIs from the places store through a grid of
 * POI_MIN_ZOOM tiles. Nothing is cut ahead: a tile costs only the features that reach it.
 */
import { COORD_SCALE } from '../../pack/format.js';
import { PlaceKind } from '../../places/kinds.js';
import type { Region } from '../../region.js';
import { basemapIndex, type BasemapIndex } from '../../render/basemap-index.js';
import { latToWorldY, lonToWorldX } from '../../render/raster/mercator.js';
import { BASEMAP_KINDS, GeomType } from '../kinds.js';
import { clipPolyline, PointList, type Rect } from '../../render/raster/polyline.js';
import { clipRing } from './clip.js';
import { TILE_EXTENT, TILE_MAX_ZOOM, tileBounds } from './coords.js';
import { TILE_LAYERS } from './features.js';
import { MvtType, type MvtLayer, type MvtValue } from './mvt-writer.js';
import { KIND_MIN_ZOOM, POI_MIN_ZOOM } from './zooms.js';

type Properties = Record<string, MvtValue>;

const LAYER_INDEX = new Map<string, number>(TILE_LAYERS.map((l, i) => [l, i]));
const POI_LAYER = LAYER_INDEX.get('poi')!;

/** How a tile is cut: its buffer (tile units) and simplification tolerance (tile units, below TILE_MAX_ZOOM). */
export interface CutOptions {
  buffer: number;
  tolerance: number;
}

/** A region's tiling state: its basemap index and its named POIs, built once. */
export class RegionTiles {
  private readonly index: BasemapIndex | null;
  /**
   * Named POIs (place indices, ascending) by the tile at POI_MIN_ZOOM that holds them (key x * 2^z + y): a tile at
   * that zoom or above lies inside one such tile, and its buffer within the neighbouring ones.
   */
  private readonly poiCells = new Map<number, number[]>();
  /** World x and y (0..1) of every place, for the named POIs. */
  private readonly poiX: Float64Array;
  private readonly poiY: Float64Array;
  /** Scratch point lists. */
  private readonly pts = new PointList();
  private readonly clipped = new PointList();
  private readonly tmp = new PointList();
  /** The layer that clipped line pieces go to (set before clipPolyline), and the callback writing them there. */
  private pieceLayer: MvtLayer | null = null;
  private readonly writePiece = (piece: PointList): void => this.writePart(this.pieceLayer!, piece);

  constructor(readonly region: Region) {
    const map = region.basemap;
    this.index = map ? basemapIndex(map) : null;
    // The grid now (a few milliseconds for a city): a tile source answers many small boxes. Each part is projected
    // and simplified when a tile first draws it, not here: projected points take 20 bytes a point for the process's
    // life, and a server's maps show some areas of a country's pack, not all of it.
    this.index?.buildGrid();
    const places = region.places;
    const n = places?.count ?? 0;
    this.poiX = new Float64Array(n);
    this.poiY = new Float64Array(n);
    const cells = 2 ** POI_MIN_ZOOM;
    for (let i = 0; i < n; i++) {
      if (places!.kind[i] !== PlaceKind.poi || !region.strings.has(places!.name[i]!)) continue;
      const wx = (this.poiX[i] = lonToWorldX(places!.lon[i]! / COORD_SCALE, 0, 1));
      const wy = (this.poiY[i] = latToWorldY(places!.lat[i]! / COORD_SCALE, 0, 1));
      const key = Math.floor(wx * cells) * cells + Math.floor(wy * cells);
      const list = this.poiCells.get(key);
      if (list) list.push(i);
      else this.poiCells.set(key, [i]);
    }
  }

  /**
   * Writes the region's features in tile z/x/y into the layers that `layer` gives by TILE_LAYERS index and returns
   * how many it wrote.
   */
  cut(z: number, x: number, y: number, o: CutOptions, layer: (index: number) => MvtLayer): number {
    let count = 0;
    const index = this.index;
    if (index) {
      const found = index.query(tileBounds(z, x, y, o.buffer));
      for (const [name, features] of found) {
        const l = LAYER_INDEX.get(name);
        if (l === undefined) continue;
        for (const f of features) if (this.feature(f, z, x, y, o, layer, l)) count++;
      }
    }
    if (z >= POI_MIN_ZOOM) count += this.pois(z, x, y, o, layer, POI_LAYER);
    return count;
  }

  /** Writes basemap feature f into layer `l` of `layers`; returns whether it drew anything. */
  private feature(
    f: number,
    z: number,
    x: number,
    y: number,
    o: CutOptions,
    layers: (index: number) => MvtLayer,
    l: number,
  ): boolean {
    const map = this.index!.basemap;
    const kind = map.kind[f]!;
    if (KIND_MIN_ZOOM[kind]! > z) return false;
    const layer = layers(l);
    const type = map.type[f]!;
    // Made per feature drawn, not kept: an object per basemap feature held for the process's life was ≈ 2.5 MB of the
    // serving thread's heap on whole HCMC, and a name decodes once (the string table caches it).
    const props = this.properties(f);
    const scale = TILE_EXTENT * 2 ** z;
    const lo = -o.buffer,
      hi = TILE_EXTENT + o.buffer;
    // Vertices whose Douglas-Peucker significance is under the tolerance (world units) are dropped.
    const tolerance = z >= TILE_MAX_ZOOM ? 0 : o.tolerance;
    const minSig = tolerance / scale;
    const ox = x * TILE_EXTENT,
      oy = y * TILE_EXTENT;
    const index = this.index!;
    const p0 = map.featPart.at(f),
      p1 = map.featPart.at(f + 1);
    if (type === GeomType.point) {
      const world = index.points(p0);
      const i = index.start(p0);
      const px = world[2 * i]! * scale - ox,
        py = world[2 * i + 1]! * scale - oy;
      if (!(px >= lo && px <= hi && py >= lo && py <= hi)) return false;
      layer.beginFeature(MvtType.point, props);
      layer.moveTo(Math.round(px), Math.round(py));
      layer.endPart();
      return layer.endFeature();
    }
    const polygon = type === GeomType.polygon;
    if (!polygon && type !== GeomType.line) return false;
    layer.beginFeature(polygon ? MvtType.polygon : MvtType.line, props);
    const pts = this.pts;
    for (let p = p0; p < p1; p++) {
      // Project the part's kept vertices, noting its extent and (lines) length or (rings) twice its area.
      // Point slots of the part in `world` and `sig` (see BasemapIndex.points).
      const first = index.start(p);
      const world = index.points(p);
      const end = first + (polygon ? index.openEnd(p) : map.partFirst.at(p + 1)) - map.partFirst.at(p);
      const sig = tolerance > 0 ? index.partSignificance(p) : null;
      pts.reset();
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity,
        size = 0;
      // The size is measured on every vertex (the part's own length or area, as the tolerance test means it).
      let qx = 0,
        qy = 0;
      for (let i = first; i < end; i++) {
        const px = world[2 * i]! * scale - ox,
          py = world[2 * i + 1]! * scale - oy;
        if (i > first) size += polygon ? qx * py - px * qy : Math.hypot(px - qx, py - qy);
        qx = px;
        qy = py;
        if (sig && sig[i]! < minSig && i !== end - 1 && i !== first) continue;
        pts.push(px, py);
        if (px < minX) minX = px;
        if (px > maxX) maxX = px;
        if (py < minY) minY = py;
        if (py > maxY) maxY = py;
      }
      if (polygon && end > first)
        size += qx * (world[2 * first + 1]! * scale - oy) - (world[2 * first]! * scale - ox) * qy;
      // Parts smaller than the tolerance are dropped (a line shorter, a ring of less area); so is a polygon whose
      // outer ring is.
      const small = tolerance > 0 && (polygon ? Math.abs(size) / 2 < tolerance * tolerance : size < tolerance);
      const outside = maxX < lo || minX > hi || maxY < lo || minY > hi;
      if (small || outside) {
        if (polygon && p === p0) return false;
        continue;
      }
      const inside = minX >= lo && maxX <= hi && minY >= lo && maxY <= hi;
      if (!polygon) {
        if (inside) this.writePart(layer, pts);
        else {
          this.pieceLayer = layer;
          clipPolyline(
            pts,
            false,
            { minX: lo, minY: lo, maxX: hi, maxY: hi } satisfies Rect,
            this.clipped,
            this.writePiece,
          );
        }
        continue;
      }
      let ring = pts;
      if (!inside) {
        clipRing(pts, lo, hi, this.clipped, this.tmp);
        ring = this.clipped;
      }
      if (!this.writeRing(layer, ring, p === p0) && p === p0) return false;
    }
    return layer.endFeature();
  }

  /** Writes a line (piece), rounded to the tile grid. */
  private writePart(layer: MvtLayer, pts: PointList): void {
    const xy = pts.xy;
    layer.moveTo(Math.round(xy[0]!), Math.round(xy[1]!));
    for (let i = 1; i < pts.count; i++) layer.lineTo(Math.round(xy[2 * i]!), Math.round(xy[2 * i + 1]!));
    layer.endPart();
  }

  /**
   * Writes a ring rounded to the tile grid, wound as MVT wants (exterior rings clockwise in tile coordinates, holes
   * the other way); a ring of no area left is dropped. Returns whether it was written.
   */
  private writeRing(layer: MvtLayer, ring: PointList, outer: boolean): boolean {
    if (ring.count < 3) return false;
    const xy = ring.xy;
    layer.moveTo(Math.round(xy[0]!), Math.round(xy[1]!));
    for (let i = 1; i < ring.count; i++) layer.lineTo(Math.round(xy[2 * i]!), Math.round(xy[2 * i + 1]!));
    const area = layer.partArea();
    if (area === 0) return false;
    if (area > 0 !== outer) layer.reversePart();
    return layer.endPart();
  }

  /**
   * Writes the named POIs in the buffered tile (z ≥ POI_MIN_ZOOM; in places order) into layer `l` of `layers`;
   * returns how many.
   */
  private pois(z: number, x: number, y: number, o: CutOptions, layers: (index: number) => MvtLayer, l: number): number {
    const scale = TILE_EXTENT * 2 ** z;
    const lo = -o.buffer,
      hi = TILE_EXTENT + o.buffer;
    const ox = x * TILE_EXTENT,
      oy = y * TILE_EXTENT;
    const shift = z - POI_MIN_ZOOM,
      cells = 2 ** POI_MIN_ZOOM;
    const hits: number[] = [];
    for (let cx = (x >> shift) - 1; cx <= (x >> shift) + 1; cx++) {
      for (let cy = (y >> shift) - 1; cy <= (y >> shift) + 1; cy++) {
        for (const i of this.poiCells.get(cx * cells + cy) ?? []) {
          const px = this.poiX[i]! * scale - ox,
            py = this.poiY[i]! * scale - oy;
          if (px >= lo && px <= hi && py >= lo && py <= hi) hits.push(i);
        }
      }
    }
    hits.sort((a, b) => a - b);
    if (hits.length === 0) return 0;
    const layer = layers(l);
    for (const i of hits) {
      // Made when drawn, not kept: a server's tiles would keep one for every POI of the region.
      layer.beginFeature(MvtType.point, this.poiProperties(i));
      layer.moveTo(Math.round(this.poiX[i]! * scale - ox), Math.round(this.poiY[i]! * scale - oy));
      layer.endPart();
      layer.endFeature();
    }
    return hits.length;
  }

  /** A basemap feature's tile properties: `class`, and `name` when it has one. */
  private properties(f: number): Properties {
    const map = this.index!.basemap;
    const props: Properties = { class: BASEMAP_KINDS[map.kind[f]!]?.class ?? 'other' };
    const name = this.region.strings.get(map.name[f]!);
    if (name) props.name = name;
    return props;
  }

  /** A POI's tile properties: class `poi`, its name, rank (importance) and category when it has one. */
  private poiProperties(i: number): Properties {
    const places = this.region.places!,
      strings = this.region.strings;
    const props: Properties = { class: 'poi', name: strings.get(places.name[i]!), rank: places.importance[i]! };
    const category = strings.get(places.category.at(i));
    if (category) props.category = category;
    return props;
  }
}

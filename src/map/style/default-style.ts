import { TILE_MAX_ZOOM, TILE_MIN_ZOOM } from '../tiles/coords.js';

/** Font stacks the default style uses (their glyph PBFs ship in assets/fonts). */
export const DEFAULT_FONT = ['Noto Sans Regular'];
export const DEFAULT_FONT_BOLD = ['Noto Sans Bold'];

/** Name of the vector source in the default style. */
export const DEFAULT_SOURCE = 'bando';

/** Options of {@link defaultStyle}. */
export interface DefaultStyleOptions {
  /** A tiles key appended to every resource URL as `?<keyParam>=<key>`. */
  key?: string;
  /** Name of the key's query parameter (default `key`). */
  keyParam?: string;
  /** Where the map opens, [longitude, latitude] in degrees (the packs' area). Default central Hanoi. */
  center?: readonly [number, number];
  /** The zoom it opens at. Default 14. */
  zoom?: number;
}

type Json = Record<string, unknown>;
type Stops = number[];

/** `interpolate` exponential 1.5 over zoom with [zoom, value, zoom, value, …] stops (the usual road curve). */
const byZoom = (stops: Stops): unknown[] => ['interpolate', ['exponential', 1.5], ['zoom'], ...stops];
const classIs = (...classes: string[]): unknown[] =>
  classes.length === 1 ? ['==', ['get', 'class'], classes[0]] : ['match', ['get', 'class'], classes, true, false];

/** Road classes: fill colour, casing colour, fill width stops and casing width stops (px by zoom), min zoom. */
const ROADS: {
  cls: string[];
  id: string;
  color: string;
  casing: string;
  width: Stops;
  casingWidth: Stops;
  minzoom: number;
}[] = [
  {
    id: 'service',
    cls: ['service'],
    color: '#ffffff',
    casing: '#d9d0c3',
    width: [14, 0.8, 16, 3, 18, 8],
    casingWidth: [14, 1.4, 16, 4.5, 18, 10.5],
    minzoom: 14,
  },
  {
    id: 'minor',
    cls: ['minor'],
    color: '#ffffff',
    casing: '#d4c9b8',
    width: [12, 0.6, 14, 2, 16, 6, 18, 16],
    casingWidth: [12, 1, 14, 3, 16, 8, 18, 19],
    minzoom: 12,
  },
  {
    id: 'tertiary',
    cls: ['tertiary'],
    color: '#ffffff',
    casing: '#cfc2ad',
    width: [10, 0.6, 13, 2.2, 16, 8, 18, 20],
    casingWidth: [10, 1, 13, 3.4, 16, 10, 18, 23],
    minzoom: 10,
  },
  {
    id: 'secondary',
    cls: ['secondary'],
    color: '#fdf1a8',
    casing: '#d8c57a',
    width: [9, 0.8, 13, 3, 16, 10, 18, 24],
    casingWidth: [9, 1.2, 13, 4.4, 16, 12.5, 18, 27],
    minzoom: 9,
  },
  {
    id: 'primary',
    cls: ['primary'],
    color: '#fcd68a',
    casing: '#dcaa56',
    width: [8, 1, 13, 3.5, 16, 11, 18, 26],
    casingWidth: [8, 1.6, 13, 5, 16, 13.5, 18, 29],
    minzoom: 8,
  },
  {
    id: 'trunk',
    cls: ['trunk', 'motorway'],
    color: '#f9a65a',
    casing: '#cf7f3a',
    width: [5, 0.8, 10, 2, 13, 4, 16, 12, 18, 28],
    casingWidth: [5, 1.2, 10, 3, 13, 5.6, 16, 14.5, 18, 31],
    minzoom: 5,
  },
];

/** Area fills: id, layer, classes, colour, min zoom. */
const AREAS: { id: string; layer: string; cls: string[]; color: string; minzoom: number }[] = [
  { id: 'landuse-residential', layer: 'landuse', cls: ['residential'], color: '#ece7de', minzoom: 10 },
  { id: 'landuse-commercial', layer: 'landuse', cls: ['commercial'], color: '#f2e3df', minzoom: 10 },
  { id: 'landuse-industrial', layer: 'landuse', cls: ['industrial'], color: '#ebe3ec', minzoom: 10 },
  { id: 'landuse-institutional', layer: 'landuse', cls: ['institutional'], color: '#f0e8d2', minzoom: 10 },
  { id: 'landuse-military', layer: 'landuse', cls: ['military'], color: '#f0dcd8', minzoom: 10 },
  { id: 'park-wood', layer: 'park', cls: ['wood'], color: '#bcdcaa', minzoom: 8 },
  { id: 'park-park', layer: 'park', cls: ['park', 'grass', 'cemetery'], color: '#cfe8c0', minzoom: 8 },
  { id: 'park-pitch', layer: 'park', cls: ['pitch'], color: '#bfe3bc', minzoom: 12 },
];

/**
 * The default map style (style spec version 8), shared by bando's static renderer and MapLibre GL JS: a light
 * street map of the pack's vector tiles (layers water, landuse, park, waterway, building, railway, road, place,
 * poi; see src/map/tiles). Uses only the background, fill, line and symbol properties of style-layers.md.
 * @param baseUrl where the service is mounted, without a trailing slash (`https://host:port`, `https://host/bando`,
 *   or a path such as `` or `/bando` for URLs relative to the style's host: MapLibre then needs the sprite URL made
 *   absolute, by `transformStyle`, as it resolves sprite URLs with `new URL`); resource paths follow engine-api.md
 * @param options a tiles key to append to the resource URLs
 */
export function defaultStyle(baseUrl: string, options: DefaultStyleOptions = {}): Json {
  let end = baseUrl.length;
  while (end > 0 && baseUrl[end - 1] === '/') end--;
  const base = baseUrl.slice(0, end);
  const query = options.key
    ? `?${encodeURIComponent(options.keyParam ?? 'key')}=${encodeURIComponent(options.key)}`
    : '';
  const src = { source: DEFAULT_SOURCE };
  const layers: Json[] = [
    { id: 'background', type: 'background', paint: { 'background-color': '#f5f2ec' } },
    ...AREAS.map((a) => ({
      id: a.id,
      type: 'fill',
      ...src,
      'source-layer': a.layer,
      minzoom: a.minzoom,
      filter: classIs(...a.cls),
      paint: { 'fill-color': a.color },
    })),
    { id: 'water', type: 'fill', ...src, 'source-layer': 'water', paint: { 'fill-color': '#aad3f0' } },
    {
      id: 'waterway-river',
      type: 'line',
      ...src,
      'source-layer': 'waterway',
      minzoom: 8,
      filter: classIs('river', 'canal'),
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': '#aad3f0', 'line-width': byZoom([8, 1, 13, 3, 18, 16]) },
    },
    {
      id: 'waterway-stream',
      type: 'line',
      ...src,
      'source-layer': 'waterway',
      minzoom: 12,
      filter: classIs('stream'),
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': '#aad3f0', 'line-width': byZoom([12, 0.5, 18, 5]) },
    },
    {
      id: 'building',
      type: 'fill',
      ...src,
      'source-layer': 'building',
      minzoom: 15,
      paint: {
        'fill-color': '#e3ddd4',
        'fill-outline-color': '#d3cabe',
        'fill-opacity': ['interpolate', ['linear'], ['zoom'], 15, 0.6, 16, 1],
      },
    },
    {
      id: 'road-path',
      type: 'line',
      ...src,
      'source-layer': 'road',
      minzoom: 15,
      filter: classIs('path'),
      layout: { 'line-join': 'round' },
      paint: { 'line-color': '#b8a991', 'line-width': byZoom([15, 1, 18, 2.5]), 'line-dasharray': [2, 1.5] },
    },
    ...ROADS.map((r) => ({
      id: `road-${r.id}-casing`,
      type: 'line',
      ...src,
      'source-layer': 'road',
      minzoom: r.minzoom,
      filter: classIs(...r.cls),
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': r.casing, 'line-width': byZoom(r.casingWidth) },
    })),
    ...ROADS.map((r) => ({
      id: `road-${r.id}`,
      type: 'line',
      ...src,
      'source-layer': 'road',
      minzoom: r.minzoom,
      filter: classIs(...r.cls),
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': r.color, 'line-width': byZoom(r.width) },
    })),
    {
      id: 'railway',
      type: 'line',
      ...src,
      'source-layer': 'railway',
      minzoom: 10,
      paint: { 'line-color': '#9c9790', 'line-width': byZoom([10, 0.8, 16, 2.5, 18, 4]), 'line-dasharray': [3, 2] },
    },
    {
      id: 'road-label',
      type: 'symbol',
      ...src,
      'source-layer': 'road',
      minzoom: 13,
      filter: [
        'all',
        ['has', 'name'],
        classIs('trunk', 'motorway', 'primary', 'secondary', 'tertiary', 'minor', 'service'),
      ],
      layout: {
        'symbol-placement': 'line',
        'text-field': ['get', 'name'],
        'text-font': DEFAULT_FONT,
        'text-size': ['interpolate', ['linear'], ['zoom'], 13, 10, 16, 12.5, 18, 14],
        'text-max-angle': 30,
        'symbol-spacing': 300,
      },
      paint: { 'text-color': '#5b5346', 'text-halo-color': 'rgba(255, 255, 255, 0.9)', 'text-halo-width': 1.4 },
    },
    {
      id: 'poi',
      type: 'symbol',
      ...src,
      'source-layer': 'poi',
      minzoom: 16,
      layout: {
        'icon-image': 'poi',
        'text-field': ['get', 'name'],
        'text-font': DEFAULT_FONT,
        'text-size': 11,
        'text-anchor': 'top',
        'text-offset': [0, 0.6],
        'text-max-width': 8,
        'text-optional': true,
        'symbol-sort-key': ['-', 0, ['coalesce', ['get', 'rank'], 0]],
      },
      paint: { 'text-color': '#6a5d86', 'text-halo-color': '#ffffff', 'text-halo-width': 1.2 },
    },
    {
      id: 'province-label',
      type: 'symbol',
      ...src,
      'source-layer': 'place',
      minzoom: 6,
      maxzoom: 11,
      filter: classIs('province'),
      layout: {
        'text-field': ['get', 'name'],
        'text-font': DEFAULT_FONT_BOLD,
        'text-max-width': 8,
        'text-size': ['interpolate', ['linear'], ['zoom'], 6, 12, 10, 16],
      },
      paint: { 'text-color': '#2f2b28', 'text-halo-color': 'rgba(255, 255, 255, 0.9)', 'text-halo-width': 1.8 },
    },
    {
      id: 'place-label',
      type: 'symbol',
      ...src,
      'source-layer': 'place',
      minzoom: 11,
      // The 2025 wards; the extract's own place nodes (suburb, quarter, neighbourhood: mostly pre-2025 units)
      // stay in the tiles for styles that ask for them.
      filter: classIs('ward'),
      layout: {
        'text-field': ['get', 'name'],
        'text-font': DEFAULT_FONT_BOLD,
        'text-max-width': 7,
        'text-size': ['interpolate', ['linear'], ['zoom'], 11, 11, 16, 16],
      },
      paint: { 'text-color': '#3d3a36', 'text-halo-color': 'rgba(255, 255, 255, 0.85)', 'text-halo-width': 1.6 },
    },
  ];
  return {
    version: 8,
    name: 'bando default',
    metadata: { 'bando:version': 1 },
    center: options.center ? [...options.center] : [105.8516, 21.0245],
    zoom: options.zoom ?? 14,
    sources: {
      [DEFAULT_SOURCE]: {
        type: 'vector',
        tiles: [`${base}/tiles/{z}/{x}/{y}.pbf${query}`],
        minzoom: TILE_MIN_ZOOM,
        maxzoom: TILE_MAX_ZOOM,
        attribution: '© OpenStreetMap contributors',
      },
    },
    glyphs: `${base}/fonts/{fontstack}/{range}.pbf${query}`,
    sprite: `${base}/sprites/default${query}`,
    layers,
  };
}

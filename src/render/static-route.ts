/**
 * The static route image (GET /staticmap/route): the pack's basemap drawn with a style, fitted to the route with
 * padding, the route line in its colour over a white casing, origin and destination markers and the OpenStreetMap
 * attribution, encoded as PNG.
 */
import { drawBasemap, type BasemapSource } from './map.js';
import type { RenderCache } from './render-cache.js';
import { Canvas, fitBounds, measureText, Viewport, type RGBA } from './raster/index.js';

/** A route's geometry: [lon, lat] pairs in degrees from origin to destination. */
export interface RouteGeometry {
  coordinates: readonly (readonly [number, number])[];
}

/** What the image needs besides the route: its size and the route colour (straight RGBA, alpha 0..1). */
export interface RouteImageOptions {
  /** Map pixels; the image has `width * scale` pixels. */
  width: number;
  /** Map pixels; the image has `height * scale` pixels. */
  height: number;
  color: RGBA;
  /** Image pixels per map pixel (Google's `scale`): the same map area, lines and labels at `scale` times the pixels. Default 1. */
  scale?: number;
}

/** Route line widths, pixels: the coloured line and the white casing around it. */
const ROUTE_WIDTH = 5;
const CASING_WIDTH = 9;
const WHITE: RGBA = [255, 255, 255, 1];
/** Destination marker colour (the origin marker takes the route colour). */
const DESTINATION_COLOR: RGBA = [220, 53, 45, 1];
/** Marker radii, map pixels (the origin dot, the destination pin's head). */
const ORIGIN_RADIUS = 7;
const DESTINATION_RADIUS = 9;
/** Height of the destination pin above its tip, map pixels (kept inside the image by the top padding). */
const PIN_HEIGHT = 34;
/** Most zoomed-in view, so that a very short route still shows its streets. */
const MAX_ZOOM = 18;
const ATTRIBUTION = '© OpenStreetMap contributors';
/** Pixels per tile of the map the style is written for (fitBounds' and Viewport's default). */
const TILE_SIZE = 512;

/**
 * Draws the static route image.
 * @param route the route line, [lon, lat] degrees
 * @param p image size (pixels) and route colour
 * @param cache the owner's render cache (see drawBasemap)
 */
export function drawStaticRoute(
  source: BasemapSource,
  style: unknown,
  route: RouteGeometry,
  p: RouteImageOptions,
  cache: RenderCache,
): Canvas {
  const { width, height } = p;
  const k = p.scale ?? 1;
  const canvas = new Canvas(width * k, height * k);
  const viewport = routeViewport(route, width, height, k);
  drawBasemap(canvas, viewport, source, style, cache);
  const line = new Float64Array(2 * route.coordinates.length);
  route.coordinates.forEach(([lon, lat], i) => {
    line[2 * i] = viewport.x(lon);
    line[2 * i + 1] = viewport.y(lat);
  });
  const round = { cap: 'round', join: 'round' } as const;
  canvas.strokePolyline(line, { ...round, color: WHITE, width: CASING_WIDTH * k });
  canvas.strokePolyline(line, { ...round, color: p.color, width: ROUTE_WIDTH * k });
  const n = line.length;
  const origin = { kind: 'origin', color: [p.color[0], p.color[1], p.color[2], 1], size: ORIGIN_RADIUS * k } as const;
  canvas.drawMarker(line[0]!, line[1]!, origin);
  canvas.drawMarker(line[n - 2]!, line[n - 1]!, {
    kind: 'destination',
    color: DESTINATION_COLOR,
    size: DESTINATION_RADIUS * k,
  });
  drawAttribution(canvas, k);
  return canvas;
}

/**
 * The view that fits the route with padding (more at the top, for the destination pin).
 * @param width map pixels
 * @param height map pixels
 * @param scale image pixels per map pixel: the view covers the same area with `scale` times the pixels
 */
export function routeViewport(route: RouteGeometry, width: number, height: number, scale = 1): Viewport {
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const [lon, lat] of route.coordinates) {
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
  }
  const side = Math.round(Math.min(48, Math.max(4, Math.min(width, height) * 0.08)));
  const padding = { left: side, right: side, bottom: side, top: side + PIN_HEIGHT };
  const bbox = [minLon, minLat, maxLon, maxLat] as const;
  // Images too small for the padding fit the route edge to edge.
  const fit =
    fitBounds(bbox, width, height, { padding, maxZoom: MAX_ZOOM }) ??
    fitBounds(bbox, width, height, { maxZoom: MAX_ZOOM });
  const [w, h, tile] = [width * scale, height * scale, TILE_SIZE * scale];
  return fit
    ? new Viewport(fit.center, fit.zoom, w, h, tile)
    : new Viewport([(minLon + maxLon) / 2, (minLat + maxLat) / 2], MAX_ZOOM, w, h, tile);
}

/** "© OpenStreetMap contributors" in the bottom-right corner on a translucent white box, `k` pixels per font pixel. */
function drawAttribution(canvas: Canvas, k: number): void {
  const { width: tw, height: th } = measureText(ATTRIBUTION, k);
  const x = canvas.width - tw - 4 * k,
    y = canvas.height - th - 3 * k;
  canvas.fillPolygon(
    [[x - 4 * k, y - 3 * k, canvas.width, y - 3 * k, canvas.width, canvas.height, x - 4 * k, canvas.height]],
    [255, 255, 255, 0.75],
  );
  canvas.drawText(ATTRIBUTION, x, y, { color: [51, 51, 51, 1], scale: k });
}

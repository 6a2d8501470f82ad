/**
 * Generates the default sprite (assets/sprites/default.png, default@2x.png, default.json, default@2x.json): route
 * origin and destination markers, a waypoint marker and a POI dot, drawn as anti-aliased shapes with pngjs.
 * Deterministic. Run: npx tsx data-tools/sprites.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

type Rgba = [number, number, number, number];

/** A sprite image: size in 1x pixels and its coverage per layer (distance functions in 1x pixels, negative inside). */
export interface SpriteIcon {
  name: string;
  width: number;
  height: number;
  /** Layers painted bottom to top: a signed distance (1x px) and a colour. */
  layers: { dist: (x: number, y: number) => number; color: Rgba }[];
}

const circle = (cx: number, cy: number, r: number) => (x: number, y: number) => Math.hypot(x - cx, y - cy) - r;

/** A map pin: a circle of radius r centred (cx, cy) whose tangents meet at the tip (cx, tipY). */
const pin = (cx: number, cy: number, r: number, tipY: number) => (x: number, y: number) => {
  const dc = Math.hypot(x - cx, y - cy) - r;
  // The cone between the tangent points and the tip: distance to its two sides (negative inside).
  const h = tipY - cy;
  const half = Math.asin(r / h); // half-angle of the cone at the tip
  const dx = Math.abs(x - cx),
    dy = tipY - y;
  const side = dx * Math.cos(half) - dy * Math.sin(half);
  // Above the tangent points the circle alone is the outline (the cone would poke out beside it).
  const tangentDy = Math.sqrt(h * h - r * r) * Math.cos(half);
  const cone = dy < 0 ? Math.hypot(dx, dy) : dy > tangentDy ? Infinity : side;
  return Math.min(dc, cone);
};

const WHITE: Rgba = [255, 255, 255, 255];
const SHADOW: Rgba = [0, 0, 0, 60];

/** The icons of the default sprite. */
export const ICONS: SpriteIcon[] = [
  {
    name: 'origin',
    width: 22,
    height: 22,
    layers: [
      { dist: circle(11, 11.8, 10), color: SHADOW },
      { dist: circle(11, 11, 9.5), color: WHITE },
      { dist: circle(11, 11, 7), color: [46, 160, 67, 255] },
      { dist: circle(11, 11, 2.8), color: WHITE },
    ],
  },
  {
    name: 'destination',
    width: 26,
    height: 34,
    layers: [
      { dist: pin(13, 12.8, 11.5, 33.5), color: SHADOW },
      { dist: pin(13, 12, 11, 32.5), color: WHITE },
      { dist: pin(13, 12, 9, 29.5), color: [214, 48, 49, 255] },
      { dist: circle(13, 12, 3.8), color: WHITE },
    ],
  },
  {
    name: 'waypoint',
    width: 18,
    height: 18,
    layers: [
      { dist: circle(9, 9.6, 8), color: SHADOW },
      { dist: circle(9, 9, 7.5), color: WHITE },
      { dist: circle(9, 9, 5.5), color: [37, 52, 148, 255] },
    ],
  },
  {
    name: 'poi',
    width: 10,
    height: 10,
    layers: [
      { dist: circle(5, 5, 4.5), color: WHITE },
      { dist: circle(5, 5, 3), color: [120, 110, 150, 255] },
    ],
  },
];

/** Sprite index entry (MapLibre sprite JSON). */
export interface SpriteEntry {
  x: number;
  y: number;
  width: number;
  height: number;
  pixelRatio: number;
}

/**
 * Draws the icons side by side at `ratio` (1 or 2) with 2 px (1x) gaps: anti-aliased by 4×4 supersampling,
 * layers composited with source-over (premultiplication avoided: PNG stores straight alpha).
 */
export function drawSprite(
  icons: readonly SpriteIcon[],
  ratio: number,
): { png: Uint8Array; index: Record<string, SpriteEntry> } {
  const gap = 2;
  const width = icons.reduce((s, i) => s + (i.width + gap) * ratio, 0);
  const height = Math.max(...icons.map((i) => i.height)) * ratio;
  const png = new PNG({ width, height });
  png.data.fill(0);
  const index: Record<string, SpriteEntry> = {};
  let x0 = 0;
  const S = 4;
  for (const icon of icons) {
    index[icon.name] = { x: x0, y: 0, width: icon.width * ratio, height: icon.height * ratio, pixelRatio: ratio };
    for (let py = 0; py < icon.height * ratio; py++) {
      for (let px = 0; px < icon.width * ratio; px++) {
        let r = 0,
          g = 0,
          b = 0,
          a = 0; // straight colour, alpha 0–1
        for (const layer of icon.layers) {
          let cov = 0;
          for (let sy = 0; sy < S; sy++) {
            for (let sx = 0; sx < S; sx++) {
              if (layer.dist((px + (sx + 0.5) / S) / ratio, (py + (sy + 0.5) / S) / ratio) <= 0) cov++;
            }
          }
          const la = (cov / (S * S)) * (layer.color[3] / 255);
          if (la === 0) continue;
          const na = la + a * (1 - la);
          r = (layer.color[0] * la + r * a * (1 - la)) / na;
          g = (layer.color[1] * la + g * a * (1 - la)) / na;
          b = (layer.color[2] * la + b * a * (1 - la)) / na;
          a = na;
        }
        const i = (py * width + x0 + px) * 4;
        png.data[i] = Math.round(r);
        png.data[i + 1] = Math.round(g);
        png.data[i + 2] = Math.round(b);
        png.data[i + 3] = Math.round(a * 255);
      }
    }
    x0 += (icon.width + gap) * ratio;
  }
  return { png: new Uint8Array(PNG.sync.write(png)), index };
}

function main(): void {
  const out = fileURLToPath(new URL('../assets/sprites/', import.meta.url));
  mkdirSync(out, { recursive: true });
  for (const ratio of [1, 2]) {
    const { png, index } = drawSprite(ICONS, ratio);
    const base = ratio === 1 ? 'default' : `default@${ratio}x`;
    writeFileSync(`${out}${base}.png`, png);
    writeFileSync(`${out}${base}.json`, `${JSON.stringify(index, null, 2)}\n`);
    console.log(`${base}: ${png.length} bytes, ${Object.keys(index).length} icons`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();

/**
 * What the raster kernel (bando-raster.wasm) imports: JavaScript's own Math.sin and Math.log, so that its Mercator
 * projection (render/basemap-kernel.ts) gives Math's numbers. A module of its own, so that the basemap index (which
 * the tile source loads) takes it without the canvas code of wasm-raster.ts.
 */
export const RASTER_IMPORTS = { math: { sin: Math.sin, log: Math.log } };

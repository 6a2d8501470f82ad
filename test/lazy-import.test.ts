import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * A module-resolution hook (node:module register) that refuses the renderer (its entry module, api/static-route-image)
 * and its heavy dependency, the style spec: with it, importing the package and answering the JSON endpoints must
 * still work, while the first static image, which loads the renderer, must fail naming the refused module (which
 * shows that the hook is in force).
 */
const BLOCK_HOOK = `
const BLOCKED = ['@maplibre/maplibre-gl-style-spec'];
export async function resolve(specifier, context, next) {
  if (BLOCKED.some((b) => specifier === b || specifier.startsWith(b + '/')) || specifier.endsWith('/static-route-image.js'))
    throw new Error('blocked import of ' + specifier);
  return next(specifier, context);
}`;

const CHILD = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(BLOCK_HOOK)}));
const bando = await import('./src/index.ts');
const engine = await bando.createEngine();
const a = '21.0285,105.8522', b = '21.0243,105.8575';
const handle = bando.createFetchHandler(engine, { keys: [{ key: 't', kind: 'tiles' }], allowHttp: true,
  resources: bando.createMapResources(bando.createTileSource(engine.regions), { demo: false }) });
const style = await handle(new Request('http://localhost/styles/default/style.json?key=t'), { remoteAddress: '127.0.0.1' });
const glyph = await handle(new Request('http://localhost/fonts/Noto%20Sans%20Regular/0-255.pbf?key=t'), { remoteAddress: '127.0.0.1' });
// validateStyle is synchronous: it loads the style spec's CommonJS build (not through import) for the first value that
// needs it, an expression.
const { createRequire } = await import('node:module');
const specLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('maplibre-gl-style-spec'));
const specBefore = specLoaded();
const validation = bando.validateStyle({ version: 8, sources: {}, layers: [{ id: 'b', type: 'background', paint: { 'background-color': ['get', 'colour'] } }] });
console.log(JSON.stringify({
  specBefore,
  specAfter: specLoaded(),
  validation: validation.errors.map((e) => e.path),
  direction: engine.direction({ origin: a, destination: b }).status,
  matrix: engine.distanceMatrix({ origins: a, destinations: b }).status,
  geocode: engine.geocode({ address: 'Hàng Bài, Hoàn Kiếm' }).status,
  style: style.status,
  glyph: glyph.status,
}));
try {
  await engine.staticRoute({ origin: a, destination: b });
  console.log('static: drawn');
} catch (err) {
  console.log('static: ' + err.message);
}
`;

describe('lazy loading of the renderer', () => {
  it('answers the JSON endpoints and map resources without loading the renderer or the style spec; validateStyle loads the spec for an expression', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr.replace(/^.*ExperimentalWarning.*$|^\(Use `node --trace-warnings.*$/gm, '').trim()).toBe('');
    const [json, staticLine] = r.stdout.trim().split('\n');
    const answers = JSON.parse(json!);
    expect(answers.direction).toBe('OK');
    expect(answers.matrix).toBe('OK');
    expect(answers.geocode).toBe('OK');
    expect(answers.style).toBe(200);
    expect(answers.glyph).toBe(200);
    expect(answers.specBefore).toBe(false);
    expect(answers.validation).toEqual(['layers[0].paint.background-color']);
    expect(answers.specAfter).toBe(true);
    // The first static image needs the renderer: the refused import surfaces there, and only there.
    expect(staticLine).toMatch(
      /^static: .*blocked import of (@maplibre\/maplibre-gl-style-spec|.*\/static-route-image\.js)/,
    );
  }, 60_000);

  it('draws a first static image with the default style without loading the style spec (the small table takes its expressions)', () => {
    const child = `
const bando = await import('./src/index.ts');
const { createRequire } = await import('node:module');
const specLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('maplibre-gl-style-spec'));
const engine = await bando.createEngine();
const png = await engine.staticRoute({ origin: '21.0285,105.8522', destination: '21.0243,105.8575', width: 400, height: 300 });
const afterImage = specLoaded();
bando.validateStyle({ version: 8, sources: {}, layers: [{ id: 'b', type: 'background', paint: { 'background-opacity': ['zoom'] } }] });
console.log(JSON.stringify({ png: png instanceof Uint8Array, afterImage, afterValidation: specLoaded() }));
`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    // The check sees a load when there is one: validating an expression loads the library.
    expect(JSON.parse(r.stdout.trim()), r.stderr).toEqual({ png: true, afterImage: false, afterValidation: true });
  }, 60_000);
});

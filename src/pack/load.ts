import { nodeBuiltin } from '../node-builtin.js';
import { Pack, PackError } from './reader.js';

/**
 * Where a pack comes from: a file path (Node), a URL (fetched; file: URLs in Node; outside Node a string without a
 * scheme is relative to the page), or the bytes themselves.
 */
export type PackSource = string | URL | ArrayBuffer | Uint8Array;

/** Reads and opens one pack. Throws PackError naming the source when it is missing, truncated or corrupt. */
export async function loadPack(source: PackSource, opts: { verify?: boolean } = {}): Promise<Pack> {
  if (source instanceof ArrayBuffer || source instanceof Uint8Array)
    return Pack.from(source, { source: 'pack bytes', verify: opts.verify });
  const label = source instanceof URL ? source.href : source;
  const bytes = await readSource(source, label);
  return Pack.from(bytes, { source: label, verify: opts.verify });
}

/**
 * The URL a source names, or null for a Node file path. Outside Node a string without a scheme is a URL relative to
 * the page or worker (`/packs/hanoi.pack`), as fetch would read it.
 */
function sourceUrl(source: string | URL, label: string, inNode: boolean): URL | null {
  if (source instanceof URL) return source;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return new URL(source);
  if (inNode) return null;
  const base = (globalThis as { location?: { href: string } }).location?.href;
  if (!base)
    throw new PackError(
      label,
      'is neither an absolute URL nor a file path this runtime can read: give an absolute URL or the bytes',
    );
  return new URL(source, base);
}

async function readSource(source: string | URL, label: string): Promise<Uint8Array> {
  const fs = nodeBuiltin('node:fs');
  const url = sourceUrl(source, label, !!fs);
  if (url && url.protocol !== 'file:') {
    let res: Response;
    try {
      res = await fetch(url);
    } catch (err) {
      throw new PackError(label, `cannot be fetched (${(err as Error).message})`);
    }
    if (!res.ok) throw new PackError(label, `cannot be fetched (HTTP ${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  }
  if (!fs) throw new PackError(label, 'is a file: URL, which only Node can read: give an http(s) URL or the bytes');
  try {
    const buf = await fs.promises.readFile(url ?? source);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new PackError(
      label,
      code === 'ENOENT' ? 'file does not exist' : `cannot be read (${(err as Error).message})`,
    );
  }
}

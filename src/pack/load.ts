import { Pack, PackError } from './reader.js';

/** Where a pack comes from: a file path (Node), a URL (fetch, or file: URLs in Node), or the bytes themselves. */
export type PackSource = string | URL | ArrayBuffer | Uint8Array;

/** Reads and opens one pack. Throws PackError naming the source when it is missing, truncated or corrupt. */
export async function loadPack(source: PackSource, opts: { verify?: boolean } = {}): Promise<Pack> {
  if (source instanceof ArrayBuffer || source instanceof Uint8Array) return Pack.from(source, { source: 'pack bytes', verify: opts.verify });
  const label = source instanceof URL ? source.href : source;
  const bytes = await readSource(source, label);
  return Pack.from(bytes, { source: label, verify: opts.verify });
}

async function readSource(source: string | URL, label: string): Promise<Uint8Array> {
  const url = source instanceof URL ? source : /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? new URL(source) : null;
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
  // Node only: kept out of the browser bundle's static graph by the dynamic import.
  const fs = await import('node:fs/promises');
  try {
    const buf = await fs.readFile(url ?? source);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new PackError(label, code === 'ENOENT' ? 'file does not exist' : `cannot be read (${(err as Error).message})`);
  }
}

/** Reading a JSON input (Overpass JSON or GeoJSON) whole: both are parsed at once with JSON.parse. */
import { readFileSync } from 'node:fs';

/**
 * Parses a JSON file (a leading byte-order mark is allowed).
 *
 * @returns the document and the file's length in characters (for a progress report)
 * @throws Error naming the file when it is not valid JSON
 */
export function readJsonFile(path: string): { doc: unknown; length: number } {
  const text = readFileSync(path, 'utf8').replace(/^\ufeff/, '');
  try {
    return { doc: JSON.parse(text), length: text.length };
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
}

import { readFileSync } from 'node:fs';

/** An element of an OSM XML file with its tags and its position: a node's, or the mean of a way's distinct nodes. */
export interface XmlElement {
  element: string;
  tags: Record<string, string>;
  at?: [lat: number, lon: number];
}

/**
 * The nodes and ways of an OSM XML file, read with regular expressions over the text: an independent path to the data,
 * for checking what the pack builder made of it (entities in values decoded as the files use them).
 */
export function xmlElements(file: string): XmlElement[] {
  const text = readFileSync(file, 'utf8');
  const tagsOf = (body: string) =>
    Object.fromEntries(
      [...body.matchAll(/<tag k="([^"]*)" v="([^"]*)"\/>/g)].map((t) => [
        t[1]!,
        t[2]!
          .replace(/&#39;/g, "'")
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
      ]),
    );
  const nodes = new Map<string, [number, number]>();
  const out: XmlElement[] = [];
  for (const m of text.matchAll(
    /<node id="(\d+)"[^>]*?lat="([-\d.]+)" lon="([-\d.]+)"[^>]*?(\/>|>([\s\S]*?)<\/node>)/g,
  )) {
    const at: [number, number] = [Number(m[2]), Number(m[3])];
    nodes.set(m[1]!, at);
    out.push({ element: `node/${m[1]}`, tags: tagsOf(m[5] ?? ''), at });
  }
  for (const m of text.matchAll(/<way id="(\d+)"[^>]*>([\s\S]*?)<\/way>/g)) {
    const pts = [...new Set([...m[2]!.matchAll(/<nd ref="(\d+)"\/>/g)].map((r) => r[1]!))]
      .map((r) => nodes.get(r))
      .filter((p): p is [number, number] => !!p);
    const at: [number, number] | undefined = pts.length
      ? [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length]
      : undefined;
    out.push({ element: `way/${m[1]}`, tags: tagsOf(m[2]!), at });
  }
  return out;
}

import { readFileSync } from 'node:fs';

/** A way as found in an Overpass JSON file. */
export interface JsonWay {
  id: number;
  nodes: number[];
  tags: Record<string, string>;
}

/**
 * Reads ways straight from Overpass JSON files with JSON.parse, merged by id with later files winning: an
 * independent path to the same data, for checking what the pack builder made of it.
 */
export function overpassWays(files: string[]): Map<number, JsonWay> {
  const ways = new Map<number, JsonWay>();
  for (const f of files) {
    const doc = JSON.parse(readFileSync(f, 'utf8')) as {
      elements: { type: string; id: number; nodes?: number[]; tags?: Record<string, string> }[];
    };
    for (const e of doc.elements)
      if (e.type === 'way') ways.set(e.id, { id: e.id, nodes: e.nodes ?? [], tags: e.tags ?? {} });
  }
  return ways;
}

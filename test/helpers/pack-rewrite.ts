import { Pack } from '../../src/pack/reader.js';
import { PackWriter } from '../../src/pack/writer.js';

/**
 * A copy of a pack (or its bytes) with sections replaced (`value` given: a typed array or JSON) or left out (`value`
 * null); sections named in `change` but not in the pack are added at the end.
 */
export function rewrite(from: Uint8Array | Pack, change: Record<string, unknown>): Uint8Array {
  const pack = from instanceof Pack ? from : Pack.from(from);
  const w = new PackWriter();
  const put = (name: string, v: unknown) => {
    if (ArrayBuffer.isView(v)) w.addArray(name, v as Uint32Array);
    else w.addJson(name, v);
  };
  for (const [name, e] of pack.sections) {
    if (!(name in change)) {
      const b = pack.array<Uint8Array>(name);
      w.addArray(name, e.type === 10 ? b : pack.array(name));
    } else if (change[name] !== null) put(name, change[name]);
  }
  for (const [name, v] of Object.entries(change)) if (!pack.sections.has(name) && v !== null) put(name, v);
  return w.finish();
}

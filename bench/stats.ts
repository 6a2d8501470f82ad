/** Small statistics helpers shared by the benchmarks. */

/** The q-quantile (0..1) of a list of numbers (nearest rank). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** Median. */
export function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** Prints a table of rows (objects with the same keys) to stdout. */
export function table(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n## ${title}`);
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]!).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i]!)).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => cell(r[k]!).padEnd(widths[i]!)).join('  '));
}

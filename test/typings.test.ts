import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const CONSUMER = new URL('./types/consumer.ts', import.meta.url);

describe('published typings (dist/*.d.ts through the exports map)', () => {
  it('test/types/consumer.ts compiles: its correct calls typecheck and every marked mistake is an error', () => {
    // The markers are what the test is about: at least the three Direction mistakes must be among them.
    const markers = readFileSync(CONSUMER, 'utf8').match(/@ts-expect-error/g) ?? [];
    expect(markers.length).toBeGreaterThanOrEqual(3);
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', new URL('./types/tsconfig.json', import.meta.url).pathname], {
        encoding: 'utf8',
      });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe('');
  });
});

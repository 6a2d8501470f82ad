import { mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRequestLog } from '../src/adapters/cli/log-file.js';

// Issue 39 item 8: the request log reopens on SIGHUP (rotation) and survives a write error.

const dir = mkdtempSync(join(tmpdir(), 'bando-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('--log file', () => {
  it('reopen (SIGHUP) after a rotation sends later lines to a new file at the path', async () => {
    const path = join(dir, 'rotate.log');
    const log = openRequestLog(path, () => {});
    log.write('a\n');
    await tick();
    renameSync(path, `${path}.1`);
    log.write('b\n'); // still the rotated file: it is open
    log.reopen();
    log.write('c\n');
    await log.close();
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('a\nb\n');
    expect(readFileSync(path, 'utf8')).toBe('c\n');
  });

  it('a write error is reported once, lines meanwhile are counted lost, and logging resumes once it can', async () => {
    const path = join(dir, 'full.log');
    symlinkSync('/dev/full', path);
    const told: string[] = [];
    const log = openRequestLog(path, (m) => told.push(m), 100);
    log.write('1\n');
    await tick();
    log.write('2\n3\n'); // inside the retry time: dropped, counted (as is the failed line 1)
    log.write('4\n');
    await tick();
    expect(told).toEqual([expect.stringMatching(/full\.log cannot be written \(.*ENOSPC.*\); retrying every 100 ms/)]);
    unlinkSync(path); // the disk has room again
    await tick(150);
    log.write('5\n');
    await tick();
    log.write('6\n');
    await log.close();
    expect(readFileSync(path, 'utf8')).toBe('5\n6\n');
    expect(told[1]).toMatch(/full\.log is written again \(4 lines lost meanwhile\)/);
    expect(told).toHaveLength(2);
  });
});

/**
 * Corrupt packs (issue 18 item 5): a real pack cut short or with bytes overwritten inside its sections, opened with
 * `verify` on, off and lazy, is refused with a PackError naming the problem or answered — every endpoint returns a body
 * with a status (an ERROR naming the corruption counts as an answer) — never a hang, a crash or a raw
 * TypeError/RangeError. Each batch runs in a child process so that a hang shows as a missing report.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CaseReport, ChildTask } from './helpers/corrupt-pack-child.js';
import type { CorruptCase } from './helpers/corrupt-pack.js';

const CHILD = fileURLToPath(new URL('./helpers/corrupt-pack-child.ts', import.meta.url));
/** Longest a case may go without a report before it counts as a hang: generous, for a loaded machine. */
const HANG_MS = 90_000;
/** Messages of JavaScript's own errors: an unchecked read of corrupt data, not a checked refusal. */
const RAW =
  /Cannot read prop|is not a function|is not iterable|undefined|Invalid array length|out of (range|bounds)|Maximum call stack|offset is out|Invalid typed array/;

/** Runs the cases in a child; resolves with the reports, or rejects naming a case that hung or a crash. */
function runCases(task: ChildTask): Promise<CaseReport[]> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const reports: CaseReport[] = [];
    let current: CorruptCase | null = null;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    let timer = setTimeout(() => {}, 0);
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no answer within ${HANG_MS} ms: ${JSON.stringify(current)}`));
      }, HANG_MS);
    };
    watch();
    child.on('message', (m: { start?: CorruptCase; done?: true } & Partial<CaseReport>) => {
      watch();
      if (m.start) current = m.start;
      else if (m.done) {
        clearTimeout(timer);
        child.kill();
        resolve(reports);
      } else reports.push(m as CaseReport);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGKILL')
        reject(
          new Error(`the child crashed (${code ?? signal}) at ${JSON.stringify(current)}: ${stderr.slice(-2000)}`),
        );
    });
    child.send(task);
  });
}

const cases = (kind: CorruptCase['kind'], verify: CorruptCase['verify'], seeds: number[]): CorruptCase[] =>
  seeds.map((seed) => ({ kind, seed, verify }));

describe('corrupt packs (fixed seeds)', () => {
  it('are refused naming the problem or answered, with verify on, off and lazy; never a hang, a crash or a corrupt byte used when checked', async () => {
    const seeds = Array.from({ length: 12 }, (_, i) => i + 1);
    const reports = await runCases({
      region: 'hcmc',
      points: ['10.7769,106.7009', '10.7870,106.6880', '10.7800,106.6950'],
      cases: [
        ...cases('truncate', true, seeds.slice(0, 4)),
        ...cases('truncate', false, seeds.slice(0, 4)),
        ...cases('overwrite', true, seeds.slice(0, 4)),
        ...cases('overwrite', false, seeds),
        ...cases('truncate', 'lazy', seeds.slice(4, 8)),
        ...cases('overwrite', 'lazy', seeds),
      ],
    });
    expect(reports.length).toBe(40);
    // The engines did run on corrupt data: some unverified overwrites were answered, not all refused at open.
    expect(reports.filter((r) => !r.case.verify && 'answered' in r).length).toBeGreaterThan(0);
    for (const r of reports) {
      const what = JSON.stringify(r).slice(0, 400);
      expect('threw' in r, what).toBe(false);
      if ('refused' in r) {
        expect(r.refused, what).toMatch(/^PackError: pack bytes: /);
        expect(r.refused, what).not.toMatch(RAW);
      } else if ('answered' in r) {
        for (const line of r.answered) expect(line, what).not.toMatch(RAW);
      }
      // With verify on, any change to the bytes is refused.
      if (r.case.verify === true) expect('refused' in r, what).toBe(true);
      // Checked lazily, a truncated pack is refused at load, and corrupt bytes are never used: each answer is the
      // clean pack's own, or an error status naming the corrupt section's checksum.
      if (r.case.verify === 'lazy' && r.case.kind === 'truncate') expect('refused' in r, what).toBe(true);
      if (r.case.verify === 'lazy' && 'answered' in r)
        r.answered.forEach((line, i) => {
          if (!r.same[i]) expect(line, what).toMatch(/^\w+: ERROR .*pack bytes: corrupt: checksum of section "[^"]+"/);
        });
    }
    // Some lazily checked cases did hit their corrupt section.
    expect(reports.some((r) => r.case.verify === 'lazy' && 'answered' in r && r.same.some((s) => !s))).toBe(true);
  }, 600_000);
});

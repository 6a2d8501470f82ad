import { existsSync } from 'node:fs';
import { readUsageFile } from '../http/usage-file.js';
import { createRedisUsageStore, isRedisUrl } from '../http/usage-redis.js';
import type { UsageReport } from '../http/usage.js';
import { flag, type ParsedArgs } from './args.js';
import type { CliCommand } from './command.js';
import { DEFAULT_KEYS_FILE, usageFileFor } from './files.js';

const STATS_HELP = `bando stats [--keys FILE | --usage FILE|redis://…] [--key KEY] [--period YYYY-MM] [--json]
  Usage per key and month: requests per endpoint, autocomplete sessions, billable units (quota use),
  from the usage file (read while bando serve runs) or the Redis store.`;

/** `bando stats`: prints the usage kept by `bando serve` (file or Redis), one block per key and period. */
export const statsCommand: CliCommand = {
  help: STATS_HELP,
  flags: { keys: 'value', usage: 'value', key: 'value', period: 'value', json: 'switch' },
  run: (args) => stats(args),
};

async function stats(args: ParsedArgs): Promise<number> {
  const path = flag(args, 'usage') ?? usageFileFor(flag(args, 'keys') ?? DEFAULT_KEYS_FILE);
  // A file named on the command line must exist (a misspelt name would otherwise read as "no usage").
  if (
    !isRedisUrl(path) &&
    !existsSync(path) &&
    (flag(args, 'usage') !== undefined || flag(args, 'keys') !== undefined)
  ) {
    throw new Error(`usage file ${path} does not exist (bando serve writes it beside the keys file)`);
  }
  const report = isRedisUrl(path) ? await redisReport(path) : readUsageFile(path);
  const onlyKey = flag(args, 'key');
  const onlyPeriod = flag(args, 'period');
  const rows: { key: string; period: string; billable: number; sessions: number; requests: Record<string, number> }[] =
    [];
  for (const [key, periods] of Object.entries(report).sort(([a], [b]) => a.localeCompare(b))) {
    if (onlyKey && key !== onlyKey) continue;
    for (const [period, u] of Object.entries(periods).sort(([a], [b]) => a.localeCompare(b))) {
      if (onlyPeriod && period !== onlyPeriod) continue;
      rows.push({ key, period, billable: u.billable, sessions: u.sessions, requests: u.requests });
    }
  }
  if (flag(args, 'json') === 'true') {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  if (rows.length === 0) process.stdout.write(`no usage recorded in ${isRedisUrl(path) ? 'the Redis store' : path}\n`);
  for (const r of rows) {
    const total = Object.values(r.requests).reduce((a, b) => a + b, 0);
    // A key that loaded maps (style requests: one map load each, the tiles key's billable unit) says so.
    const maps = r.requests.style !== undefined ? `  map_loads=${r.requests.style}` : '';
    process.stdout.write(
      `${r.key}  ${r.period}  requests=${total}  billable=${r.billable}  autocomplete_sessions=${r.sessions}${maps}\n`,
    );
    for (const [endpoint, n] of Object.entries(r.requests).sort(([a], [b]) => a.localeCompare(b)))
      process.stdout.write(`    ${endpoint.padEnd(16)} ${n}\n`);
  }
  return 0;
}

/** All counts of the Redis store at `url`. */
async function redisReport(url: string): Promise<UsageReport> {
  const store = await createRedisUsageStore(url);
  try {
    return await store.report();
  } finally {
    await store.close();
  }
}

/**
 * The package as its users install it: `npm pack` of this checkout, then `npm install` of the tarball (and of any
 * other packages an app names) into an empty app folder. Shared by the tarball test and the recipe tests.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where `npm pack` runs). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Packs the package into `dir` and installs the tarball there, with `extra` packages (npm specs such as
 * `maplibre-gl@^6`) beside it, as an app named `consumer` would. dist/ is fresh (test/setup/dist.ts), so packing only
 * copies it. Installs prefer the npm cache (the packages are those of this repository's lock).
 */
export function installTarball(dir: string, extra: string[] = []): void {
  const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', join(dir, tgz), ...extra],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

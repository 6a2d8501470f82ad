import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Whether the openssl command is installed (the TLS tests are skipped, and say so, without it). */
export const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0;

/**
 * A self-signed certificate for 127.0.0.1, valid one day, written into `dir` as cert.pem and key.pem (PEM).
 * @throws Error with openssl's output when it fails
 */
export function selfSignedCert(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert];
  const gen = spawnSync('openssl', [...args, '-days', '1', '-subj', '/CN=127.0.0.1'], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`openssl failed: ${gen.stderr}`);
  return { cert, key };
}

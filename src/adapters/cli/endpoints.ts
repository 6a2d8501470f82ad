import { writeFileSync } from 'node:fs';
import { createEngine } from '../../engine.js';
import { httpStatusOfBody } from '../../api/statuses.js';
import { ENDPOINT_PATHS, type EngineApi, type MethodName } from '../http/routes.js';
import { flag, type ParsedArgs } from './args.js';
import type { CliCommand } from './command.js';

/** Sub-command name → engine method. */
const ENDPOINT_COMMANDS: Readonly<Record<string, MethodName>> = {
  geocode: 'geocode',
  autocomplete: 'autocomplete',
  'place-detail': 'placeDetail',
  direction: 'direction',
  'distance-matrix': 'distanceMatrix',
  trip: 'trip',
  staticmap: 'staticRoute',
};

/** Usage of the endpoint sub-commands. */
export const ENDPOINTS_HELP = `bando <endpoint> name=value ... [--pack FILE ...] [--out FILE.png]
  Endpoints: ${Object.entries(ENDPOINT_COMMANDS)
    .map(([c, m]) => `${c} (${ENDPOINT_PATHS[m]})`)
    .join(', ')}.
  Parameters are the REST query parameters, percent-decoded as in a URL (values copied from a URL work;
  + is a space). Prints the JSON answer; staticmap writes the PNG to --out
  (default route.png). Exit status 0 for OK and NOT_FOUND answers, 1 for errors.
  Example: bando direction origin=21.0285,105.8522 destination=21.0243,105.8575`;

/** The endpoint sub-commands, by name: each prints its endpoint's answer (see ENDPOINTS_HELP). */
export const endpointCommands: Readonly<Record<string, CliCommand>> = Object.fromEntries(
  Object.entries(ENDPOINT_COMMANDS).map(([command, method]) => [
    command,
    {
      help: ENDPOINTS_HELP.replace('<endpoint>', command),
      flags: { pack: 'value', out: 'value' },
      run: (args: ParsedArgs) => endpointCommand(method, args),
    },
  ]),
);

/** Runs one endpoint sub-command; returns the exit status. */
async function endpointCommand(method: MethodName, args: ParsedArgs): Promise<number> {
  const engine: EngineApi = await createEngine({ packs: args.flags.get('pack') });
  const fn = engine[method];
  if (typeof fn !== 'function') {
    process.stderr.write(`bando: this engine has no ${method} method yet\n`);
    return 2;
  }
  const params = { ...args.params };
  if (params.place_id === undefined && params.placeid !== undefined) params.place_id = params.placeid;
  delete params.placeid;
  const answer = await fn.call(engine, params);
  if (answer instanceof Uint8Array) {
    const out = flag(args, 'out') ?? 'route.png';
    writeFileSync(out, answer);
    process.stderr.write(`wrote ${out} (${answer.byteLength} bytes)\n`);
    return 0;
  }
  process.stdout.write(JSON.stringify(answer, null, 2) + '\n');
  return httpStatusOfBody(answer) === 200 ? 0 : 1;
}

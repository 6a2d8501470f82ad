import { writeFileSync } from 'node:fs';
import { createEngine } from '../../engine.js';
import { httpStatusOfBody } from '../../api/statuses.js';
import { ENDPOINT_PARAMS, paramNames, type ParamRow } from '../../api/param-table.js';
import { ENDPOINT_PATHS, type EngineApi, type MethodName } from '../http/routes.js';
import { flag, type ParsedArgs } from './args.js';
import type { CliCommand } from './command.js';
import { didYouMean } from './suggest.js';

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
  + is a space); a pasted query string ('origin=…&destination=…') or a whole URL works too (its api_key
  is ignored; a parameter given twice counts by its first value, as the server reads it). An unknown
  parameter is refused, naming the nearest known one. Prints the JSON answer;
  staticmap writes the PNG to --out (default route.png). Exit status 0 for OK and NOT_FOUND answers, 1 for
  errors. bando <endpoint> --help lists its parameters.
  Example: bando direction origin=21.0285,105.8522 destination=21.0243,105.8575`;

/** One parameter's help line: name, type, required/default, what it does, an example value. */
function paramLine(r: ParamRow): string {
  const need = r.need ?? (r.default === undefined ? 'optional' : `default ${r.default}`);
  const aliases = r.aliases ? ` (also ${r.aliases.join(', ')})` : '';
  return `  ${r.name}${aliases}  ${r.type}, ${need}: ${r.about}; e.g. ${r.name}=${r.example}`;
}

/** `bando COMMAND --help` of one endpoint: its usage, every parameter (ENDPOINT_PARAMS) and an example call. */
function endpointHelp(command: string, method: MethodName): string {
  const rows = ENDPOINT_PARAMS[method];
  const example = rows
    .filter((r) => r.need === 'required' || (r.need === 'one of' && r === rows.find((x) => x.need === 'one of')))
    .map((r) => `${r.name}=${/[\s|;]/.test(r.example) ? `'${r.example}'` : r.example}`);
  return [
    `bando ${command} name=value ... [--pack FILE ...]${method === 'staticRoute' ? ' [--out FILE.png]' : ''}`,
    `  ${ENDPOINT_PATHS[method]}: ${rows.some((r) => r.need === 'one of') ? 'exactly one of the "one of" parameters; ' : ''}parameters:`,
    ...rows.map(paramLine),
    `  Example: bando ${command} ${example.join(' ')}`,
    `  Values are percent-decoded as in a URL; a pasted query string or URL works. Exit status 0 for OK and`,
    `  NOT_FOUND answers, 1 for errors.`,
  ].join('\n');
}

/** The endpoint sub-commands, by name: each prints its endpoint's answer (see ENDPOINTS_HELP). */
export const endpointCommands: Readonly<Record<string, CliCommand>> = Object.fromEntries(
  Object.entries(ENDPOINT_COMMANDS).map(([command, method]) => [
    command,
    {
      help: endpointHelp(command, method),
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
  delete params.api_key; // a pasted URL's key: the CLI needs none
  const known = paramNames(method);
  const unknown = Object.keys(params).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    const names = unknown.map((k) => `"${k}"${didYouMean(k, known)}`).join(', ');
    const error_message = `unknown parameter${unknown.length > 1 ? 's' : ''} ${names}; ${method} takes ${known.join(', ')}`;
    process.stdout.write(JSON.stringify({ status: 'BAD_REQUEST', error_message }, null, 2) + '\n');
    return 1;
  }
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

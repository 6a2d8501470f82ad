/**
 * Shared pieces of the endpoint parameter types. Each endpoint's parameters are typed with the REST names and their
 * literal values; numbers and booleans may also be given in their REST string form ("5", "true"), as a query
 * string carries them. The endpoints still check every value at run time, so a value that slips past the types
 * (plain JavaScript, a raw query object cast to the type) gets the endpoint's error answer, never an exception.
 */

/** A number, or its REST string form ("5", "2.5"). */
export type NumberParam = number | `${number}`;

/** A boolean, or its REST string form ("1" and "0" too). */
export type BoolParam = boolean | 'true' | 'false' | '1' | '0';

/** The parameters as the endpoint reads them before checking: any value may be anything. */
export type RawParams = Readonly<Record<string, unknown>>;

/**
 * An endpoint's parameters: typed (`P`), or the raw REST query as a URLSearchParams (every value a string, checked
 * at run time like the typed ones), e.g. `engine.direction(new URL(request.url).searchParams)`.
 */
export type Query<P> = P | URLSearchParams;

/**
 * The parameters as an object to read from, whatever was passed (a URLSearchParams, null, a non-object). A name
 * repeated in a URLSearchParams counts by its first value (`URLSearchParams.get`), as the REST server reads a query
 * (adapters/http/handler.ts), so one query gets one answer on every surface.
 */
export function rawParams(params: unknown): RawParams {
  if (params instanceof URLSearchParams) {
    const first = new Map<string, string>();
    for (const [name, value] of params) if (!first.has(name)) first.set(name, value);
    return Object.fromEntries(first);
  }
  return params !== null && typeof params === 'object' ? (params as RawParams) : {};
}

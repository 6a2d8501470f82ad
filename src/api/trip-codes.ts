/**
 * Trip failures: the seed's status word each answer carries in `code` (BAD_REQUEST, NOT_FOUND, ERROR: the words and
 * HTTP statuses of every other endpoint), from the OSRM error code the answer keeps in `osrm_code` for clients
 * written against OSRM. One row per OSRM code the engine or the server gives.
 */
export const TRIP_FAILURES = {
  /** A malformed query: a coordinate that is not a pair of numbers, an empty part, origin equal to destination. */
  InvalidQuery: 'BAD_REQUEST',
  /** A parsed value out of range: a latitude/longitude, a non-string coordinate, an unknown vehicle. */
  InvalidValue: 'BAD_REQUEST',
  /** Too many coordinates (`limits.tripStops`), or a request over the server's cost limit. */
  TooBig: 'BAD_REQUEST',
  /** A coordinate outside the loaded map or too far from a road the vehicle may use. */
  NoSegment: 'NOT_FOUND',
  /** Some stop cannot reach another. */
  NoTrips: 'NOT_FOUND',
  /** A failure of the engine caught at the boundary. */
  InternalError: 'ERROR',
} as const;

/** An OSRM error code of a trip failure (`osrm_code`). */
export type OsrmCode = keyof typeof TRIP_FAILURES;

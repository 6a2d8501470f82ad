/**
 * The parts of the MapLibre style-spec library bando uses (expressions, legacy functions and filters, colours). The
 * published package carries only these, bundled (tsup.config.ts): the library's full install is 11 MB.
 */
export {
  Color,
  Formatted,
  ResolvedImage,
  convertFilter,
  createExpression,
  createPropertyExpression,
  expression,
  function,
  isExpression,
} from '@maplibre/maplibre-gl-style-spec';

import type { PropertyDefinition, PropertyRequirement } from './types.js';

/** The nine anchor values of icon-anchor, text-anchor and text-variable-anchor. */
export const ANCHOR_VALUES = [
  'center',
  'left',
  'right',
  'top',
  'bottom',
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
] as const;

/** Symbol placement values under which keep-upright, text-max-angle etc. apply. */
export const LINE_PLACEMENTS = ['line', 'line-center'] as const;

/** A symbol table row before the section-wide requirement is added. */
export type SymbolRow = Omit<PropertyDefinition, 'layerTypes'>;

/**
 * Applies a section rule of the spec ("Icon properties (except icon-image itself) require
 * icon-image"; "Text properties other than text-field itself require text-field"): every row whose
 * name starts with `prefix`, other than `anchorProperty`, gets `{ property: anchorProperty }` as its
 * first requirement; every row becomes a symbol-layer property.
 */
export function applySectionRule(
  rows: readonly SymbolRow[],
  prefix: string,
  anchorProperty: string,
): PropertyDefinition[] {
  return rows.map((row) => {
    const base: PropertyDefinition = { ...row, layerTypes: ['symbol'] };
    if (!row.name.startsWith(prefix) || row.name === anchorProperty) return base;
    const section: PropertyRequirement = { property: anchorProperty };
    return { ...base, requires: [section, ...(row.requires ?? [])] };
  });
}

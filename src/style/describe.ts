import { DOCUMENTED_LAYER_TYPES, propertiesOf } from './definitions.js';
import type { DataDrivenSupport, PropertyDefinition } from './types.js';
import { formatVersions } from './versions.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function typeText(def: PropertyDefinition): string {
  const parts: string[] = [def.type];
  if (def.values) parts.push(def.values.join(', '));
  if (def.min !== undefined && def.max !== undefined) parts.push(`${def.min} to ${def.max}`);
  else if (def.min !== undefined) parts.push(`>= ${def.min}`);
  if (def.length !== undefined) parts.push(`length ${def.length}`);
  if (def.units) parts.push(def.units);
  return parts.join('; ');
}

function defaultText(def: PropertyDefinition): string {
  if (def.defaultFrom) return `= ${def.defaultFrom}`;
  return def.default === undefined ? 'none' : JSON.stringify(def.default);
}

function rulesText(def: PropertyDefinition): string {
  const rules: string[] = [];
  for (const r of def.requires ?? []) {
    rules.push(r.values ? `requires ${r.property} ${r.values.join(' or ')}` : `requires ${r.property}`);
  }
  if (def.requiresSource)
    rules.push(`requires a ${def.requiresSource.type} source with ${def.requiresSource.option} true`);
  if (def.disabledBy) rules.push(`disabled by ${def.disabledBy.join(' and ')}`);
  if (def.featureState) rules.push('fs');
  if (def.interpolate) rules.push('interp');
  if (def.transition) rules.push('trans');
  if (def.integerZoom) rules.push('integer zooms');
  rules.push(def.doc);
  return rules.join('; ');
}

function ddText(dd: DataDrivenSupport): string {
  return typeof dd === 'string' ? dd : formatVersions(dd);
}

function basicText(def: PropertyDefinition): string {
  const notes = (def.basicNotes ?? []).map((n) => ` (${n.label}: ${formatVersions(n.versions)})`);
  return formatVersions(def.basic) + notes.join('');
}

/**
 * Renders the property table as markdown: one section per documented layer type with
 * Property | Kind | Type | Default | Rules | Basic | DD columns (versions web/android/ios/macos).
 */
export function describeProperties(): string {
  const lines: string[] = ['# Style layer properties', ''];
  for (const type of DOCUMENTED_LAYER_TYPES) {
    lines.push(`## ${type} layer`, '');
    lines.push('| Property | Kind | Type | Default | Rules | Basic | DD |', '|---|---|---|---|---|---|---|');
    for (const def of propertiesOf(type)) {
      const row = [
        def.name,
        def.kind === 'layout' ? 'L' : 'P',
        typeText(def),
        defaultText(def),
        rulesText(def),
        basicText(def),
        ddText(def.dataDriven),
      ].map(cell);
      lines.push(`| ${row.join(' | ')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

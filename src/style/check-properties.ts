import { checkConstant } from './check-constant.js';
import { compileProperty, valueForm } from './compile.js';
import { VISIBILITY, getPropertyDefinition, layerTypesWithProperty } from './definitions.js';
import { IssueCollector, joinPath, show } from './issues.js';
import type { PropertyDefinition, PropertyKind } from './types.js';

type Json = Record<string, unknown>;

/** What a layer's properties are checked against. */
export interface PropertyContext {
  readonly layerType: string;
  /** Whether the layer type has documented properties (others: only `visibility` is checked). */
  readonly documented: boolean;
  /** Source description of the layer, when the style is known. */
  readonly source?: Json;
  readonly layout: Json;
  readonly paint: Json;
  /** Path of the layer, e.g. `layers[2]` ('' when validating a lone layer). */
  readonly prefix: string;
}

function lookup(ctx: PropertyContext, name: string): PropertyDefinition | undefined {
  if (!ctx.documented) return name === VISIBILITY.name ? VISIBILITY : undefined;
  return getPropertyDefinition(ctx.layerType, name);
}

/** Whether a property is set (present with a value) in its own section of the layer. */
function isSet(ctx: PropertyContext, def: PropertyDefinition): boolean {
  const section = def.kind === 'layout' ? ctx.layout : ctx.paint;
  return section[def.name] !== undefined;
}

function checkValue(def: PropertyDefinition, value: unknown, path: string, out: IssueCollector): void {
  if (valueForm(value) === 'constant') {
    const message = checkConstant(def, value);
    if (message) out.error(path, message);
    return;
  }
  const compiled = compileProperty(def, value, path);
  if (!compiled.ok) {
    for (const p of compiled.problems) out.error(path + p.key, p.message);
  }
}

function checkTransition(ctx: PropertyContext, key: string, value: unknown, path: string, out: IssueCollector): void {
  const base = lookup(ctx, key.slice(0, -'-transition'.length));
  if (!base || base.kind !== 'paint') {
    out.error(path, `unknown property "${key}"`);
  } else if (!base.transition) {
    out.error(path, `"${base.name}" is not transitionable`);
  } else if (
    value === null ||
    typeof value !== 'object' ||
    Object.entries(value).some(([k, v]) => !['duration', 'delay'].includes(k) || typeof v !== 'number' || v < 0)
  ) {
    out.error(path, `"${key}" expects { duration, delay } in milliseconds >= 0; found ${show(value)}`);
  }
}

function unknownMessage(ctx: PropertyContext, key: string): string {
  if (!ctx.documented) return `unknown property "${key}"`;
  const owners = layerTypesWithProperty(key);
  return owners.length > 0
    ? `"${key}" is not a property of ${ctx.layerType} layers (it belongs to ${owners.join(', ')} layers)`
    : `unknown property "${key}" for ${ctx.layerType} layers`;
}

function checkSection(ctx: PropertyContext, kind: PropertyKind, out: IssueCollector): void {
  const section = kind === 'layout' ? ctx.layout : ctx.paint;
  const sectionPath = joinPath(ctx.prefix, kind);
  for (const [key, value] of Object.entries(section)) {
    const path = joinPath(sectionPath, key);
    if (kind === 'paint' && key.endsWith('-transition')) {
      checkTransition(ctx, key, value, path, out);
      continue;
    }
    const def = lookup(ctx, key);
    if (!def) {
      if (ctx.documented) out.error(path, unknownMessage(ctx, key));
      continue;
    }
    if (def.kind !== kind) {
      out.error(path, `"${key}" is a ${def.kind} property; put it in "${def.kind}", not "${kind}"`);
      continue;
    }
    checkValue(def, value, path, out);
    checkUsable(ctx, def, path, out);
  }
}

/** Warns when a set property's requirement does not hold or another property disables it. */
function checkUsable(ctx: PropertyContext, def: PropertyDefinition, path: string, out: IssueCollector): void {
  for (const req of def.requires ?? []) {
    const dep = lookup(ctx, req.property);
    if (!dep) continue;
    const depSet = isSet(ctx, dep);
    if (!req.values) {
      if (!depSet) out.warn(path, `"${def.name}" is ignored: it requires "${dep.name}", which is not set`);
      continue;
    }
    const section = dep.kind === 'layout' ? ctx.layout : ctx.paint;
    const effective = depSet ? section[dep.name] : dep.default;
    // An expression's value is only known per zoom/feature: the requirement may hold.
    if (valueForm(effective) !== 'constant') continue;
    if (!req.values.includes(effective as string | boolean)) {
      out.warn(
        path,
        `"${def.name}" is ignored: it requires "${dep.name}" to be ${req.values.join(' or ')} (it is ${show(effective)}${depSet ? '' : ', the default'})`,
      );
    }
  }
  for (const name of def.disabledBy ?? []) {
    const other = lookup(ctx, name);
    if (other && isSet(ctx, other)) {
      out.warn(path, `"${def.name}" is ignored while "${name}" is set`);
    }
  }
  const need = def.requiresSource;
  if (need && ctx.source && (ctx.source.type !== need.type || ctx.source[need.option] !== true)) {
    out.warn(path, `"${def.name}" is ignored: it requires a ${need.type} source with ${need.option} true`);
  }
}

/**
 * Checks a layer's `layout` and `paint` objects against the property table: unknown properties,
 * kind (layout vs paint), values (constants, expressions, legacy functions), transitions; then
 * warns about requirements that do not hold and properties disabled by others.
 */
export function checkProperties(ctx: PropertyContext, out: IssueCollector): void {
  checkSection(ctx, 'layout', out);
  checkSection(ctx, 'paint', out);
}

/**
 * Derives one row of the style table from its row in MapLibre's style reference: type, range, default, flags,
 * requirements and client versions, written the way style-layers.md writes them; the overlay's differences win.
 */
import type {
  ClientVersions,
  DataDrivenSupport,
  DocumentedLayerType,
  PropertyDefinition,
  PropertyKind,
  PropertyRequirement,
  PropertyValueType,
  SourceRequirement,
  VersionNote,
} from '../../src/style/types.js';
import type { ReferenceProperty, ReferenceSupport, SpecDifference, SpecOverlay } from './types.js';

const SEMVER = /^\d+\.\d+\.\d+$/;
const BASIC = 'basic functionality';
const DATA_DRIVEN = 'data-driven styling';

/** Everything a row's derivation needs besides the reference row itself. */
export interface RowContext {
  readonly overlay: Pick<SpecOverlay, 'macosByIos' | 'macosByWebIos'>;
  /** Whether a property name is in the spec's table (requirements on others are dropped). */
  readonly known: (property: string) => boolean;
}

/**
 * The four client versions of a support row, or `undefined` when a client has no version yet (the reference then
 * links to an issue, or leaves the client out).
 * @throws Error when the overlay does not know the macOS version of the row's iOS version
 */
function clientVersions(row: ReferenceSupport | undefined, ctx: RowContext): ClientVersions | undefined {
  const web = row?.js;
  const android = row?.android;
  const ios = row?.ios;
  if (!web || !android || !ios || ![web, android, ios].every((v) => SEMVER.test(v))) return undefined;
  const macos = ctx.overlay.macosByWebIos[`${web}/${ios}`] ?? ctx.overlay.macosByIos[ios];
  if (!macos) throw new Error(`style table: no macOS version for iOS ${ios} (add it to overlay.json)`);
  return { web, android, ios, macos };
}

/** DD column: versions when every client has one, `unsupported` when some lack one, `-` without a row. */
function dataDrivenSupport(support: Readonly<Record<string, ReferenceSupport>>, ctx: RowContext): DataDrivenSupport {
  const row = support[DATA_DRIVEN];
  if (!row) return '-';
  return clientVersions(row, ctx) ?? 'unsupported';
}

/**
 * Version notes on values or features ("`auto` value", "stretchable icons"), written as the spec writes them: a
 * note named by a bare value of the property reads "<value> value". Left out: notes not yet on every client, and the
 * rows about expression operators (they describe expressions, not the property).
 */
function versionNotes(
  support: Readonly<Record<string, ReferenceSupport>>,
  values: readonly string[] | undefined,
  ctx: RowContext,
): VersionNote[] {
  const notes: VersionNote[] = [];
  for (const [key, row] of Object.entries(support)) {
    if (key === BASIC || key === DATA_DRIVEN || / expression$/.test(key)) continue;
    const versions = clientVersions(row, ctx);
    if (!versions) continue;
    const label = key.replace(/`/g, '');
    notes.push({ label: values?.includes(label) ? `${label} value` : label, versions });
  }
  return notes;
}

const PLAIN_TYPES = new Set(['color', 'number', 'boolean', 'enum', 'resolvedImage', 'formatted', 'string']);

/**
 * The table's value type of a reference type (`array` by its element type).
 * @throws Error for a type the table has no counterpart for (the overlay must give the spec's type)
 */
function valueType(ref: ReferenceProperty, name: string): PropertyValueType {
  if (ref.type === 'array' && (ref.value === 'number' || ref.value === 'string' || ref.value === 'enum')) {
    return `${ref.value}[]`;
  }
  if (PLAIN_TYPES.has(ref.type)) return ref.type as PropertyValueType;
  const shown = ref.value ? `${ref.type}<${ref.value}>` : ref.type;
  throw new Error(`style table: ${name} has reference type ${shown} (give the spec's type in overlay.json)`);
}

/** The one input of a colour ramp's expressions (line-gradient: line-progress). */
function rampInput(name: string, parameters: readonly string[]): 'line-progress' {
  if (parameters.length !== 1 || parameters[0] !== 'line-progress') {
    throw new Error(`style table: ${name} is a colour ramp over ${parameters.join(', ')}, not line-progress`);
  }
  return 'line-progress';
}

/** Requirements split the table's way: on other properties, disabled by others, on the source. */
interface Requirements {
  requires: PropertyRequirement[];
  disabledBy: string[];
  source?: SourceRequirement;
}

/**
 * Reads the reference's requirement list. Requirements on properties outside the spec's table are dropped: such a
 * property is unknown to us, so it is never set (the reference's icon-overlap and text-overlap, which disable
 * icon-allow-overlap and text-allow-overlap).
 */
function requirements(ref: ReferenceProperty, known: (property: string) => boolean): Requirements {
  const out: Requirements = { requires: [], disabledBy: [] };
  for (const r of ref.requires ?? []) {
    if (typeof r === 'string') {
      if (known(r)) out.requires.push({ property: r });
    } else if (typeof r['!'] === 'string') {
      if (known(r['!'])) out.disabledBy.push(r['!']);
    } else if (typeof r.source === 'string') {
      const [option] = Object.entries(r.has ?? {}).find(([, v]) => v === true) ?? [];
      if (option) out.source = { type: r.source, option };
    } else {
      for (const [property, v] of Object.entries(r)) {
        const values = (Array.isArray(v) ? v : [v]) as (string | boolean)[];
        if (known(property)) out.requires.push({ property, values });
      }
    }
  }
  return out;
}

/**
 * One row of the table.
 * @param ref the property's reference row
 * @param kind the reference section it is in (`layout_<type>` or `paint_<type>`)
 * @param layerTypes the documented layer types that have it
 * @param name the property's name
 * @param doc our description of it
 * @param spec where the spec differs from the reference (these fields win)
 * @param ctx the overlay's macOS versions and the spec's property names
 */
export function deriveProperty(
  ref: ReferenceProperty,
  kind: PropertyKind,
  layerTypes: readonly DocumentedLayerType[],
  name: string,
  doc: string,
  spec: SpecDifference | undefined,
  ctx: RowContext,
): PropertyDefinition {
  const support = ref['sdk-support'];
  const propertyType = ref['property-type'];
  const basic = clientVersions(support[BASIC], ctx);
  if (!basic) throw new Error(`style table: ${name} has no basic client versions`);
  const type = spec?.type ?? valueType(ref, name);
  const values = ref.values && (type === 'enum' || type === 'enum[]') ? Object.keys(ref.values) : undefined;
  const notes = versionNotes(support, values, ctx);
  const { requires, disabledBy, source } = requirements(ref, ctx.known);
  const parameters = ref.expression?.parameters ?? [];
  const row: PropertyDefinition = {
    name,
    layerTypes,
    kind,
    type,
    ...(ref.default !== undefined && { default: ref.default }),
    ...(ref.minimum !== undefined && { min: ref.minimum }),
    ...(ref.maximum !== undefined && { max: ref.maximum }),
    ...(ref.length !== undefined && { length: ref.length }),
    ...(values && { values }),
    ...(ref.units !== undefined && { units: ref.units }),
    ...(requires.length > 0 && { requires }),
    ...(source && { requiresSource: source }),
    ...(disabledBy.length > 0 && { disabledBy }),
    featureState: parameters.includes('feature-state'),
    interpolate: ref.expression?.interpolated === true,
    transition: ref.transition === true,
    // Cross-faded properties (patterns, dashes) are evaluated at integer zooms and faded between them.
    ...(propertyType.startsWith('cross-faded') && { integerZoom: true }),
    ...(propertyType === 'color-ramp' && { rampInput: rampInput(name, parameters) }),
    basic,
    ...(notes.length > 0 && { basicNotes: notes }),
    dataDriven: dataDrivenSupport(support, ctx),
    doc,
  };
  return { ...row, ...spec };
}

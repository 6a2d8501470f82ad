// The style table's generation (data-tools/style-table): the committed table must be what the generator writes from
// the installed style-spec package and the overlay, every difference the overlay declares must still be one, and the
// derivation rules must hold on rows unlike today's. test/style-table.test.ts checks the table itself against
// style-layers.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TABLE_OUT, installedReference, installedTableText, readOverlay } from '../data-tools/style-table/build.js';
import { deriveProperty, type RowContext } from '../data-tools/style-table/derive-property.js';
import type { ReferenceProperty, SpecDifference } from '../data-tools/style-table/types.js';
import { getPropertyDefinition } from '../src/style/index.js';
import type { DocumentedLayerType, PropertyKind } from '../src/style/types.js';

const overlay = readOverlay();
const { reference } = installedReference();

/** Documented layer type of a property of the overlay. */
function layerTypeOf(name: string): DocumentedLayerType {
  const entry = Object.entries(overlay.properties).find(([, rows]) => name in rows);
  return entry![0] as DocumentedLayerType;
}

function referenceRow(type: DocumentedLayerType, name: string): [ReferenceProperty, PropertyKind] {
  const layout = reference[`layout_${type}`]?.[name];
  if (layout) return [layout as ReferenceProperty, 'layout'];
  return [reference[`paint_${type}`]![name] as ReferenceProperty, 'paint'];
}

const ctx: RowContext = { overlay, known: (name) => name !== 'unknown-property' };

/** A reference row with the given fields over a plain number property supported everywhere since web 1.0.0. */
function row(fields: Partial<ReferenceProperty>): ReferenceProperty {
  return {
    type: 'number',
    'property-type': 'data-constant',
    'sdk-support': { 'basic functionality': { js: '1.0.0', android: '5.0.0', ios: '3.5.0' } },
    ...fields,
  };
}

const derive = (ref: ReferenceProperty, spec?: SpecDifference) =>
  deriveProperty(ref, 'paint', ['line'], 'x-prop', 'd', spec, ctx);

describe('generated style table', () => {
  it('is what data-tools/style-table/build.ts writes from the installed package (npm run build:style-table)', () => {
    expect(readFileSync(TABLE_OUT, 'utf8')).toBe(installedTableText());
  });
});

describe('spec differences in the overlay', () => {
  for (const { properties, spec, why } of overlay.differences) {
    for (const name of properties) {
      it(`${name}: each field differs from the reference and is in the table (${why.slice(0, 40)}…)`, () => {
        const type = layerTypeOf(name);
        const [ref, kind] = referenceRow(type, name);
        // A type the table has no counterpart for (padding) cannot be derived at all: keep only that override.
        const { type: specType, ...rest } = spec;
        const plain = deriveProperty(ref, kind, [type], name, '', specType && { type: specType }, ctx);
        if (specType) expect(ref.type).not.toBe(specType);
        const table = getPropertyDefinition(type, name)!;
        expect(table.type).toBe(specType ?? plain.type);
        for (const [field, value] of Object.entries(rest)) {
          expect(plain[field as keyof typeof plain], field).not.toEqual(value);
          expect(table[field as keyof typeof table], field).toEqual(value);
        }
      });
    }
  }
});

describe('derivation rules', () => {
  it('reads flags, range, units and fixed lengths', () => {
    const d = derive(
      row({
        type: 'array',
        value: 'number',
        length: 2,
        minimum: 0,
        units: 'pixels',
        transition: true,
        expression: { interpolated: true, parameters: ['zoom', 'feature', 'feature-state'] },
        'property-type': 'cross-faded-data-driven',
      }),
    );
    expect(d).toMatchObject({ type: 'number[]', length: 2, min: 0, units: 'pixels', transition: true });
    expect(d).toMatchObject({ interpolate: true, featureState: true, integerZoom: true });
    expect(d.max).toBeUndefined();
  });

  it('splits requirements: required, required values, disabled by, source; unknown properties dropped', () => {
    const d = derive(
      row({
        requires: [
          'a-prop',
          { 'b-prop': 'x' },
          { 'c-prop': ['y', 'z'] },
          { 'd-prop': true },
          { '!': 'e-prop' },
          { '!': 'unknown-property' },
          'unknown-property',
          { source: 'geojson', has: { lineMetrics: true } },
        ],
      }),
    );
    expect(d.requires).toEqual([
      { property: 'a-prop' },
      { property: 'b-prop', values: ['x'] },
      { property: 'c-prop', values: ['y', 'z'] },
      { property: 'd-prop', values: [true] },
    ]);
    expect(d.disabledBy).toEqual(['e-prop']);
    expect(d.requiresSource).toEqual({ type: 'geojson', option: 'lineMetrics' });
    expect(derive(row({ requires: [{ '!': 'unknown-property' }] })).disabledBy).toBeUndefined();
  });

  it('writes client versions as the spec does: macOS added, DD unsupported until every client has it', () => {
    const support = (dd: Record<string, string> | undefined, notes: Record<string, Record<string, string>> = {}) =>
      row({
        type: 'enum',
        values: { auto: {}, map: {} },
        'sdk-support': {
          'basic functionality': { js: '0.21.0', android: '4.2.0', ios: '3.4.0' },
          ...(dd && { 'data-driven styling': dd }),
          ...notes,
        },
      });
    const withNotes = derive(
      support(
        { js: '0.40.0', android: '5.2.0', ios: '3.7.0' },
        {
          '`auto` value': { js: '0.25.0', android: '4.2.0', ios: '3.4.0' },
          map: { js: '0.26.0', android: '4.3.0', ios: '3.5.0' },
          'stretchable icons': { js: '1.6.0', android: '9.2.0', ios: '5.8.0' },
          'local fonts': { js: 'https://example.org/issue', android: '1.0.0', ios: '1.0.0' },
          '[`global-state`](expressions/#global-state) expression': { js: '5.6.0', android: '13.7.1', ios: '5.8.0' },
        },
      ),
    );
    expect(withNotes.values).toEqual(['auto', 'map']);
    expect(withNotes.basic).toEqual({ web: '0.21.0', android: '4.2.0', ios: '3.4.0', macos: '0.2.1' });
    expect(withNotes.dataDriven).toEqual({ web: '0.40.0', android: '5.2.0', ios: '3.7.0', macos: '0.6.0' });
    expect(withNotes.basicNotes?.map((n) => [n.label, n.versions.macos])).toEqual([
      ['auto value', '0.3.0'],
      ['map value', '0.4.0'],
      ['stretchable icons', '0.15.0'],
    ]);
    expect(derive(support(undefined)).dataDriven).toBe('-');
    expect(derive(support({})).dataDriven).toBe('unsupported');
    expect(derive(support({ js: '5.22.0', android: 'https://example.org/issue' })).dataDriven).toBe('unsupported');
  });

  it('fails loudly on what the overlay must settle: an unknown iOS version, a type without a counterpart', () => {
    const newIos = row({ 'sdk-support': { 'basic functionality': { js: '9.0.0', android: '99.0.0', ios: '99.0.0' } } });
    expect(() => derive(newIos)).toThrow(/no macOS version for iOS 99.0.0/);
    expect(() => derive(row({ type: 'padding' }))).toThrow(/x-prop has reference type padding/);
    expect(derive(row({ type: 'padding', default: [2] }), { type: 'number', default: 2 })).toMatchObject({
      type: 'number',
      default: 2,
    });
  });
});

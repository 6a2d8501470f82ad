// Independent check of the property table against ../shared/spec/style-layers.md: the spec's
// markdown is parsed here and every row compared field by field with the table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BASIC_A,
  LAYER_FIELDS,
  PROPERTY_DEFINITIONS,
  describeProperties,
  getPropertyDefinition,
  parseColor,
  propertiesOf,
  type ClientVersions,
  type PropertyDefinition,
} from '../src/style/index.js';

const SPEC = readFileSync(new URL('../../shared/spec/style-layers.md', import.meta.url), 'utf8');

interface SpecRow {
  section: string;
  layerType: string;
  cells: string[];
}

/** Splits the spec into `### ` sections: title -> body. */
function sections(): Map<string, string> {
  const out = new Map<string, string>();
  const parts = SPEC.split(/^### /m).slice(1);
  for (const part of parts) {
    const nl = part.indexOf('\n');
    out.set(part.slice(0, nl).trim(), part.slice(nl + 1));
  }
  return out;
}

function tableRows(body: string): string[][] {
  return body
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('|---'))
    .slice(1) // header
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

const SECTIONS = sections();
const PROPERTY_SECTIONS = [...SECTIONS.keys()].filter((t) => /^(background|fill|line|symbol) layer/.test(t));

const ROWS: SpecRow[] = PROPERTY_SECTIONS.flatMap((section) =>
  tableRows(SECTIONS.get(section)!).map((cells) => ({ section, layerType: section.split(' ')[0]!, cells })),
);

const anchorProse = /anchor values for icon-anchor: ([^;]+);/.exec(SPEC);
const ANCHORS = anchorProse![1]!.split(', ').map((s) => s.trim());

function parseVersions(text: string): ClientVersions {
  if (text === 'A') return BASIC_A;
  const [web, android, ios, macos] = text.split('/');
  return { web: web!, android: android!, ios: ios!, macos: macos! };
}

function parseType(cell: string) {
  const out: {
    type: string;
    values?: string[];
    min?: number;
    max?: number;
    units?: string;
  } = { type: '' };
  const [head, ...rest] = cell.split(', ');
  const unitsOf = () => (rest.length ? rest.join(', ').replace(/^in /, '') : undefined);
  const range = (text: string) => {
    const between = /(?<![\d.-])(-?[\d.]+) to (-?[\d.]+)/.exec(text);
    if (between) {
      out.min = Number(between[1]);
      out.max = Number(between[2]);
    }
    const atLeast = />= (-?[\d.]+)/.exec(text);
    if (atLeast) out.min = Number(atLeast[1]);
  };
  if (cell.startsWith('enum (anchor values)')) return { type: 'enum', values: ANCHORS };
  if (cell.startsWith('array of enums (anchor values)')) return { type: 'enum[]', values: ANCHORS };
  if (cell.startsWith('array of enums ')) {
    return { type: 'enum[]', values: cell.slice('array of enums '.length).split(', ') };
  }
  if (cell.startsWith('enum ')) return { type: 'enum', values: cell.slice('enum '.length).split(', ') };
  if (head!.startsWith('array of numbers')) {
    out.type = 'number[]';
    range(head!);
    out.units = unitsOf();
    return out;
  }
  if (head === 'array of strings') return { type: 'string[]' };
  if (head!.startsWith('number')) {
    out.type = 'number';
    range(head!);
    out.units = unitsOf();
    return out;
  }
  return { type: head! }; // color, boolean, resolvedImage, formatted
}

/** Requirements written in a Rules cell, plus the section-wide icon-image / text-field rules. */
function parseRequires(name: string, rules: string[]) {
  const reqs: { property: string; values?: (string | boolean)[] }[] = [];
  let source: { type: string; option: string } | undefined;
  for (const rule of rules.filter((r) => r.startsWith('requires '))) {
    const geo = /^requires a (\w+) source with (\w+) true$/.exec(rule);
    if (geo) {
      source = { type: geo[1]!.toLowerCase(), option: geo[2]! };
      continue;
    }
    for (const clause of rule.slice('requires '.length).split(' and ')) {
      const [property, ...words] = clause.split(' ');
      const valueText = words.join(' ').replace(/^of /, '');
      const values = valueText
        ? valueText.split(/, | or /).map((v) => (v === 'true' ? true : v === 'false' ? false : v))
        : undefined;
      reqs.push(values ? { property: property!, values } : { property: property! });
    }
  }
  const iconRule = /Icon properties \(except (\S+) itself\) require (\S+)\./.exec(SPEC)!;
  const textRule = /Text properties other than (\S+) itself require (\S+)\./.exec(SPEC)!;
  if (name.startsWith('icon-') && name !== iconRule[1]) reqs.push({ property: iconRule[2]! });
  if (name.startsWith('text-') && name !== textRule[1]) reqs.push({ property: textRule[2]! });
  return { reqs, source };
}

const sortJson = (xs: readonly unknown[]) => xs.map((x) => JSON.stringify(x)).sort();

function checkDefault(def: PropertyDefinition, cell: string): void {
  const derived = /^equals (\S+) when unspecified$/.exec(cell);
  if (derived) {
    expect(def.defaultFrom).toBe(derived[1]);
    expect(def.default).toBeUndefined();
  } else if (cell === 'none' && !def.values?.includes('none')) {
    expect(def.default).toBeUndefined();
    expect(def.defaultFrom).toBeUndefined();
  } else if (cell === 'empty string') {
    expect(def.default).toBe('');
  } else if (cell.startsWith('two font names')) {
    expect(Array.isArray(def.default) && def.default.length).toBe(2);
  } else if (def.type === 'color') {
    expect(parseColor(def.default)).toEqual(parseColor(cell));
    expect(parseColor(cell)).toBeDefined();
  } else if (/^[[\d.tf]/.test(cell) && cell !== 'top') {
    expect(def.default).toEqual(JSON.parse(cell));
  } else {
    expect(def.default).toBe(cell);
  }
}

describe('property table vs style-layers.md', () => {
  it('parses the spec into the expected number of rows', () => {
    // 3 background + 8 fill + 16 line + 26 icon/general + 29 text
    expect(PROPERTY_SECTIONS).toHaveLength(5);
    expect(ROWS).toHaveLength(3 + 8 + 16 + 26 + 29);
    expect(ANCHORS).toHaveLength(9);
  });

  it('has exactly the spec properties (plus visibility)', () => {
    const specNames = ROWS.map((r) => r.cells[0]).sort();
    const tableNames = PROPERTY_DEFINITIONS.map((d) => d.name)
      .filter((n) => n !== 'visibility')
      .sort();
    expect(tableNames).toEqual(specNames);
  });

  for (const row of ROWS) {
    const [name, kind, typeCell, defaultCell, rulesCell, basicCell, ddCell] = row.cells as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    it(`${row.layerType} ${name}`, () => {
      const def = getPropertyDefinition(row.layerType, name)!;
      expect(def, name).toBeDefined();
      expect(def.layerTypes).toEqual([row.layerType]);
      expect(def.kind).toBe(kind === 'L' ? 'layout' : 'paint');

      const t = parseType(typeCell);
      expect(def.type).toBe(t.type);
      expect(def.values ? [...def.values] : undefined).toEqual(t.values);
      expect(def.min).toBe(t.min);
      expect(def.max).toBe(t.max);
      expect(def.units).toBe(t.units);

      checkDefault(def, defaultCell);

      const rules = rulesCell.split('; ').map((r) => r.trim());
      expect(def.featureState).toBe(rules.includes('fs'));
      expect(def.interpolate).toBe(rules.includes('interp'));
      expect(def.transition).toBe(rules.includes('trans'));
      const disabled = rules.find((r) => r.startsWith('disabled by '));
      expect(def.disabledBy ? [...def.disabledBy] : undefined).toEqual(
        disabled?.slice('disabled by '.length).split(' and '),
      );
      const { reqs, source } = parseRequires(name, rules);
      expect(sortJson(def.requires ?? [])).toEqual(sortJson(reqs));
      expect(def.requiresSource).toEqual(source);

      const basic = /^(\S+)(?: \((.+): (\S+)\))?$/.exec(basicCell)!;
      expect(def.basic).toEqual(parseVersions(basic[1]!));
      expect(def.basicNotes ?? []).toEqual(basic[2] ? [{ label: basic[2], versions: parseVersions(basic[3]!) }] : []);
      expect(def.dataDriven).toEqual(ddCell === '-' || ddCell === 'unsupported' ? ddCell : parseVersions(ddCell));

      // Convention: zoom expressions in pattern and dash properties use integer zooms only.
      expect(!!def.integerZoom).toBe(/-(pattern|dasharray)$/.test(name));
      if (Array.isArray(def.default) && def.type === 'number[]') expect(def.length).toBe(def.default.length);
    });
  }

  it('visibility matches its section, on every documented layer type', () => {
    const body = SECTIONS.get('visibility (all layer types)')!;
    const m = /^(L|P), optional enum (.+), default (\w+)\..* Basic (\w+)\./m.exec(body)!;
    for (const type of ['background', 'fill', 'line', 'symbol']) {
      const def = getPropertyDefinition(type, 'visibility')!;
      expect(def.kind).toBe(m[1] === 'L' ? 'layout' : 'paint');
      expect(def.values).toEqual(m[2]!.split(' | '));
      expect(def.default).toBe(m[3]);
      expect(def.basic).toEqual(parseVersions(m[4]!));
      expect(propertiesOf(type)[0]).toBe(def);
    }
  });

  it('layer object fields match the spec table', () => {
    const rows = tableRows(SECTIONS.get("Layer object (element of the style's `layers` array)")!);
    expect(LAYER_FIELDS.map((f) => f.name)).toEqual(rows.map((r) => r[0]));
    for (const [name, required, type, rules] of rows as [string, string, string, string][]) {
      const field = LAYER_FIELDS.find((f) => f.name === name)!;
      const unlessBackground = /Required for every type except background/.test(rules);
      expect(field.required).toBe(required === 'yes' ? true : unlessBackground ? 'unless-background' : false);
      if (type.startsWith('enum: ')) {
        expect(field.type).toBe('enum');
        expect(field.values).toEqual(type.slice('enum: '.length).split(', '));
      } else if (type.startsWith('number')) {
        const r = /(?<!\d)(\d+) to (\d+)/.exec(type)!;
        expect([field.type, field.min, field.max]).toEqual(['number', Number(r[1]), Number(r[2])]);
      } else {
        expect(field.type).toBe(type);
      }
      expect(field.doc).toBe(rules);
    }
  });

  it('Basic A expands to web 0.10.0 / Android 2.0.1 / iOS 2.0.0 / macOS 0.1.0', () => {
    expect(BASIC_A).toEqual({ web: '0.10.0', android: '2.0.1', ios: '2.0.0', macos: '0.1.0' });
  });

  it('describeProperties renders one markdown row per property and layer type', () => {
    const md = describeProperties();
    const rows = md.split('\n').filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| Property'));
    expect(rows).toHaveLength(ROWS.length + 4); // + visibility in each of the 4 sections
    expect(md).toContain(
      '| line-gradient | P | color | none | requires a geojson source with lineMetrics true; disabled by line-dasharray and line-pattern; interp;',
    );
    expect(md).toContain('| icon-text-fit | L | enum; none, width, height, both |');
    expect(md).toContain('0.21.0/4.2.0/3.4.0/0.2.1 (stretchable icons: 1.6.0/9.2.0/5.8.0/0.15.0)');
  });
});

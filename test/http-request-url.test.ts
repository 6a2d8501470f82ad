import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstParam, parseRequestUrl } from '../src/adapters/http/request-url.js';

/** What the WHATWG parser says about a URL: the reference the hand-made parse must equal. */
function reference(href: string) {
  try {
    const u = new URL(href);
    return { protocol: u.protocol, pathname: u.pathname, pairs: [...u.searchParams], href: u.href };
  } catch {
    return null;
  }
}

function parsed(href: string) {
  const r = parseRequestUrl(href);
  return r && { protocol: r.protocol, pathname: r.pathname, pairs: r.pairs, href: r.url().href };
}

const tricky = [
  'a',
  'Z',
  '0',
  '9',
  '/',
  '?',
  '&',
  '=',
  '+',
  '%',
  '%2',
  '%41',
  '%C3%A0',
  '%E1%BB%87',
  '%C3',
  '%ED%A0%80',
  '%C0%AF',
  '%EF%BB%BF',
  '#',
  '.',
  '..',
  '\\',
  ' ',
  '"',
  "'",
  '<',
  '>',
  '@',
  ':',
  ';',
  ',',
  '~',
  '[',
  ']',
  '|',
  'à',
  'ệ',
  '\t',
  '\u0000',
  'key',
  'api_key',
  'origin',
  '21.0285,105.8522',
];
const piece = fc.array(fc.constantFrom(...tricky), { maxLength: 12 }).map((a) => a.join(''));
const hosts = [
  '127.0.0.1:8080',
  'localhost',
  'LocalHost:80',
  '[::1]:9',
  'a..b',
  '1.2.3.999',
  'x:99999',
  'a@b',
  'a?b',
  'a#b',
  'a\\b',
  'a b',
  'ex%41mple.com',
  'exämple.com',
  '',
  'host:',
  ':80',
];

describe('parseRequestUrl', () => {
  it('agrees with new URL + URLSearchParams on scheme, path, query pairs and href', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http://', 'https://'),
        fc.constantFrom(...hosts),
        piece,
        piece,
        (scheme, host, path, query) => {
          const href = `${scheme}${host}/${path}${query ? `?${query}` : ''}`;
          expect(parsed(href)).toEqual(reference(href));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('takes ordinary endpoint URLs apart as URLSearchParams does', () => {
    const hrefs = [
      'http://127.0.0.1:8080/Direction?origin=21.03,105.85&destination=21.02,105.84&api_key=k',
      'http://127.0.0.1:8080/Place/AutoComplete?input=Tr%E1%BA%A7n+H%C6%B0ng&location=21.0285,105.8522&api_key=k&api_key=second',
      'https://localhost/geocode?&&latlng=21,105&=x&flag&a=b=c',
      'http://localhost/Direction',
      'http://1.2.3.999/Direction?x=1',
      'http://a?b/Direction?x=1',
    ];
    for (const href of hrefs) expect(parsed(href)).toEqual(reference(href));
    expect(parseRequestUrl('http://1.2.3.999/Direction')).toBeNull();
    const r = parseRequestUrl(hrefs[1]!)!;
    expect(firstParam(r.pairs, 'input')).toBe('Trần Hưng');
    expect(firstParam(r.pairs, 'api_key')).toBe('k');
    expect(firstParam(r.pairs, 'missing')).toBeNull();
  });
});

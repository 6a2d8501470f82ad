import { describe, expect, it } from 'vitest';
import { matchesRestrictions, normalizeKeys, parsePattern } from '../src/adapters/http/keys.js';
import { isLoopback, isSecure } from '../src/adapters/http/client.js';
import { methodForPath } from '../src/adapters/http/routes.js';
import { httpStatusOfBody } from '../src/api/statuses.js';

const m = (patterns: string[], url: string) => matchesRestrictions(patterns.map(parsePattern), url);

describe('URL restrictions', () => {
  it('scheme wildcard + host + path wildcard', () => {
    const p = ['*://maps.example.com/*'];
    expect(m(p, 'https://maps.example.com')).toBe(true);
    expect(m(p, 'http://maps.example.com/a/b?c=1')).toBe(true);
    expect(m(p, 'https://maps.example.com.evil.com/')).toBe(false);
    expect(m(p, 'https://other.example.com/')).toBe(false);
  });
  it('subdomain wildcard matches subdomains only, never across / or :', () => {
    const p = ['https://*.example.com/*'];
    expect(m(p, 'https://app.example.com')).toBe(true);
    expect(m(p, 'https://a.b.example.com/x')).toBe(true);
    expect(m(p, 'https://example.com/')).toBe(false);
    expect(m(p, 'http://app.example.com/')).toBe(false);
    expect(m(p, 'https://evil.com/x.example.com/')).toBe(false);
    expect(m(p, 'https://evil.com:1.example.com/')).toBe(false);
    expect(m(p, 'https://app.example.com:8443/')).toBe(false);
    expect(m(p, 'https://APP.Example.COM/')).toBe(true);
  });
  it('host without scheme or path; ports', () => {
    expect(m(['example.com'], 'http://example.com/any/path')).toBe(true);
    expect(m(['example.com'], 'https://example.com')).toBe(true);
    expect(m(['example.com'], 'ftp://example.com/')).toBe(false);
    expect(m(['localhost'], 'http://localhost:3000/')).toBe(false);
    expect(m(['localhost:*'], 'http://localhost:3000/')).toBe(true);
    expect(m(['https://example.com'], 'https://example.com:443/')).toBe(true); // default port is no port
  });
  it('path patterns and literal characters', () => {
    const p = ['https://example.com/app/*'];
    expect(m(p, 'https://example.com/app/page')).toBe(true);
    expect(m(p, 'https://example.com/other')).toBe(false);
    expect(m(p, 'https://example.com')).toBe(false);
    expect(m(['https://ex(a)mple.com/*'], 'https://exxample.com/')).toBe(false);
    expect(m(['https://a.com/*', 'https://b.com/*'], 'https://b.com/x')).toBe(true);
  });
  it('unparsable URLs match nothing', () => {
    expect(m(['*'], 'not a url')).toBe(false);
  });
});

describe('normalizeKeys', () => {
  it('fills defaults: kind rest, quota 30000 for rest and 1000 for tiles', () => {
    const [a, b] = normalizeKeys([{ key: 'a' }, { key: 'b', kind: 'tiles' }]);
    expect(a!.kind).toBe('rest');
    expect(a!.monthlyQuota).toBe(30000);
    expect(b!.monthlyQuota).toBe(1000);
    expect(a!.restrictions).toEqual([]);
  });
  it('rejects malformed keys naming the entry', () => {
    expect(() => normalizeKeys([{ key: '' }])).toThrow(/keys\[0\]\.key/);
    expect(() => normalizeKeys([{ key: 'a' }, { key: 'a' }])).toThrow(/keys\[1\].*twice/);
    expect(() => normalizeKeys([{ key: 'a', kind: 'x' as 'rest' }])).toThrow(/keys\[0\]\.kind/);
    expect(() => normalizeKeys([{ key: 'a', perSecond: 0 }])).toThrow(/perSecond/);
    expect(() => normalizeKeys([{ key: 'a', monthlyQuota: 1.5 }])).toThrow(/monthlyQuota/);
    expect(() => normalizeKeys([{ key: 'a', restrictions: [''] }])).toThrow(/restrictions/);
  });
});

describe('client address and HTTPS', () => {
  it('loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '', undefined, '::2'])
      expect(isLoopback(a)).toBe(false);
  });
  it('https URL, trusted proxy header, development loopback', () => {
    const http = new URL('http://h/Geocode');
    const fwd = 'https';
    const none = null;
    expect(isSecure(new URL('https://h/'), none, {}, false, false)).toBe(true);
    expect(isSecure(http, fwd, {}, false, false)).toBe(false);
    expect(isSecure(http, fwd, { remoteAddress: '10.0.0.9' }, true, false)).toBe(true);
    expect(isSecure(http, 'https, http', {}, true, false)).toBe(true);
    expect(isSecure(http, 'http', {}, true, false)).toBe(false);
    expect(isSecure(http, fwd, { remoteAddress: '10.0.0.9' }, ['10.0.0.1'], false)).toBe(false);
    expect(isSecure(http, fwd, { remoteAddress: '10.0.0.1' }, ['10.0.0.1'], false)).toBe(true);
    expect(isSecure(http, none, { remoteAddress: '127.0.0.1' }, false, true)).toBe(true);
    expect(isSecure(http, none, { remoteAddress: '192.168.1.2' }, false, true)).toBe(false);
    expect(isSecure(http, none, {}, false, true)).toBe(false);
  });
});

describe('paths', () => {
  it('documented and all-lowercase paths; /Geocode in any case', () => {
    expect(methodForPath('/Direction')).toBe('direction');
    expect(methodForPath('/direction')).toBe('direction');
    expect(methodForPath('/DIRECTION')).toBe(null);
    expect(methodForPath('/Place/AutoComplete')).toBe('autocomplete');
    expect(methodForPath('/place/autocomplete')).toBe('autocomplete');
    expect(methodForPath('/Place/Autocomplete')).toBe(null);
    expect(methodForPath('/gEoCoDe')).toBe('geocode');
    expect(methodForPath('/trip')).toBe('trip');
    expect(methodForPath('/Trip')).toBe(null);
    expect(methodForPath('/staticmap/route')).toBe('staticRoute');
    expect(methodForPath('/Place/Detail')).toBe('placeDetail');
    expect(methodForPath('/DistanceMatrix')).toBe('distanceMatrix');
    expect(methodForPath('/distancematrix')).toBe('distanceMatrix');
    expect(methodForPath('/Geocode/')).toBe(null);
  });
  it('HTTP status of engine bodies', () => {
    expect(httpStatusOfBody({ status: 'OK' })).toBe(200);
    expect(httpStatusOfBody({ code: 'Ok' })).toBe(200);
    expect(httpStatusOfBody({ status: 'NOT_FOUND' })).toBe(200);
    expect(httpStatusOfBody({ code: 'NOT_FOUND', osrm_code: 'NoTrips' })).toBe(200);
    expect(httpStatusOfBody({ status: 'BAD_REQUEST' })).toBe(400);
    expect(httpStatusOfBody({ code: 'BAD_REQUEST', osrm_code: 'TooBig' })).toBe(400);
    expect(httpStatusOfBody({ code: 'ERROR', osrm_code: 'InternalError' })).toBe(500);
    expect(httpStatusOfBody({ status: 'ERROR' })).toBe(500);
    expect(httpStatusOfBody(null)).toBe(500);
    expect(httpStatusOfBody({ status: 'SOMETHING_NEW' })).toBe(500);
    expect(httpStatusOfBody({ status: 'toString' })).toBe(500);
  });
});

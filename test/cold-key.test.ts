import { describe, expect, it } from 'vitest';
import { coldKey } from '../src/adapters/http/cost.js';

describe('what a call builds on first use (coldKey: the pool gives a cold call the whole time limit)', () => {
  it('is the method for place calls, and the metric for routing calls', () => {
    expect(coldKey('geocode', { address: 'x' })).toBe(coldKey('geocode', { address: 'y' }));
    const car = coldKey('direction', { origin: 'a', destination: 'b' });
    expect(coldKey('direction', { origin: 'c', destination: 'd' })).toBe(car);
    expect(coldKey('direction', { vehicle: 'bike' })).not.toBe(car);
    expect(coldKey('staticRoute', { type: 'shortest' })).not.toBe(coldKey('staticRoute', {}));
  });

  it('names the avoided kinds in one order, whatever the separator, case or repeats', () => {
    const k = coldKey('trip', { avoid: 'tolls|ferries' });
    expect(coldKey('trip', { avoid: 'Ferries, tolls' })).toBe(k);
    expect(coldKey('trip', { avoid: 'ferries|tolls|tolls' })).toBe(k);
    expect(coldKey('trip', { avoid: 'tolls' })).not.toBe(k);
    expect(coldKey('trip', {})).not.toBe(k);
  });
});

/** Key texts for the key-name tests and the fuzzing run (issue 39 item 1). */

/** Every name Object.prototype has (`__proto__`, `constructor`, `toString`, `__defineGetter__`, …). */
const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** `n` distinct random key texts (printable ASCII and Vietnamese letters, 1–40 characters), the prototype names first. */
export function keyNames(n: number, seed: number): string[] {
  let s = seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const alphabet = [
    ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~!$&\'()*+,;=:@/?#[]{}%"<>\\^`|ăâđêôơưạảấầẩẫậ',
  ];
  const names = new Set(PROTO_NAMES);
  while (names.size < n) {
    const len = 1 + Math.floor(rand() * 40);
    let t = '';
    for (let i = 0; i < len; i++) t += alphabet[Math.floor(rand() * alphabet.length)];
    names.add(t);
  }
  return [...names];
}

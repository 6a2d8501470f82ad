/**
 * The place search index (PlaceIndex) stored built in a pack (written by data-tools/stored-indexes.ts), so that the
 * first place request on a big pack does not tokenise every place. Sections:
 * - `place.ix` (JSON): `{ version, vocab, forms, probe }`: word counts and a hash of the words that this code gives a
 *   sample of the places (see probeHash);
 * - `place.ix.words` (UTF-8): the vocabulary, then the forms, one word a line (words never hold a line break);
 * - `place.ix.formStart`, `place.ix.postStart` (Offsets columns: offsets.ts), `place.ix.post` (u8: each form's
 *   postings, place and field, as varint steps) and `place.ix.postBlock` (u32: where each block of them starts;
 *   postings.ts), `place.ix.nameLen`, `place.ix.altLen`, `place.ix.addrLen`, `place.ix.nameFlags`,
 *   `place.ix.joinOnly` (u8), `place.ix.editStart` (Offsets), `place.ix.editIds` (u32: the one-edit index,
 *   one-edit-index.ts): the index's arrays, opened as views.
 * The stored index is used only when the probe matches: a pack built by code that splits or folds words otherwise
 * builds its index again. Packs without the sections build it at first use.
 */
import { offsetArrays, readOffsets } from '../../pack/offsets.js';
import { PackError, type Pack } from '../../pack/reader.js';
import type { TypedArray } from '../../pack/format.js';
import { bytesHash } from '../../pack/bytes-hash.js';
import { Field, FIELD_MASK, postingPlace, type PlaceIndexArrays, type PlaceTerms } from './index.js';
import { Postings } from './postings.js';

/**
 * Layout version of the stored index (2: joined and expanded postings, name flags, the one-edit index; 3: a posting's
 * place and field in one word; 4: postings as varint steps in blocks).
 */
const LAYOUT = 4;
/** Places sampled by the probe. */
const PROBE_PLACES = 64;

const S = {
  index: 'place.ix',
  words: 'place.ix.words',
  formStart: 'place.ix.formStart',
  postStart: 'place.ix.postStart',
  postings: 'place.ix.post',
  postBlocks: 'place.ix.postBlock',
  nameLen: 'place.ix.nameLen',
  altLen: 'place.ix.altLen',
  addressLen: 'place.ix.addrLen',
  nameFlags: 'place.ix.nameFlags',
  joinOnly: 'place.ix.joinOnly',
  editStart: 'place.ix.editStart',
  editIds: 'place.ix.editIds',
} as const;

/** The `place.ix` section. */
interface StoredIndexInfo {
  version: number;
  vocab: number;
  forms: number;
  probe: number;
}

/**
 * A hash of the words and counts PlaceTerms gives PROBE_PLACES places spread over the `count` places: it changes
 * when the code that splits, folds or weighs words changes for any of them.
 */
export function probeHash(terms: PlaceTerms, count: number): number {
  let text = '';
  const step = Math.max(1, Math.floor(count / PROBE_PLACES));
  for (let i = 0; i < count; i += step) {
    const t = terms.of(i);
    text += `${i}:${t.nameLen},${t.altLen},${t.addressLen},${t.flags}`;
    for (const [exact, { folded, field, joined }] of t.words)
      text += `|${exact}/${folded}/${field}${joined ? '+' : ''}`;
    text += '\n';
  }
  return bytesHash(new TextEncoder().encode(text));
}

/** The sections of a built index: JSON sections and arrays, by name, in writing order. */
export function placeIndexSections(
  ix: PlaceIndexArrays,
  probe: number,
): { json: [string, unknown][]; arrays: [string, TypedArray][] } {
  const info: StoredIndexInfo = { version: LAYOUT, vocab: ix.vocab.length, forms: ix.forms.length, probe };
  return {
    json: [[S.index, info]],
    arrays: [
      [S.words, new TextEncoder().encode([...ix.vocab, ...ix.forms].join('\n'))],
      ...offsetArrays(S.formStart, ix.formStart),
      ...offsetArrays(S.postStart, ix.postStart),
      [S.postings, ix.postings.bytes],
      [S.postBlocks, ix.postings.blockAt],
      [S.nameLen, ix.nameLen],
      [S.altLen, ix.altLen],
      [S.addressLen, ix.addressLen],
      [S.nameFlags, ix.nameFlags],
      [S.joinOnly, ix.joinOnly],
      ...offsetArrays(S.editStart, ix.editStart),
      [S.editIds, ix.editIds],
    ],
  };
}

/**
 * `s`, held apart from the string it was cut from: V8 makes a split's pieces of 13 characters or more views of the
 * whole text (sliced strings), so the ≈ 2,200 longer words of whole HCMC's index kept its whole 1.1 MB text alive. A
 * cons string's slice is cut from a flat copy of that cons alone.
 */
function detached(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/**
 * The pack's stored index of its `count` places, or null when it has none or one this code would not build
 * (`probe()` differs). Throws PackError naming the section when the arrays do not fit (a pack opened without
 * checksums).
 */
export function storedPlaceIndex(pack: Pack, count: number, probe: () => number): PlaceIndexArrays | null {
  if (!pack.has(S.index)) return null;
  const info = pack.json<StoredIndexInfo>(S.index);
  if (info.version !== LAYOUT || info.probe !== probe()) return null;
  const bad = (section: string) => new PackError(pack.source, `corrupt: section "${section}" does not fit the places`);
  const words = info.vocab + info.forms > 0 ? pack.text(S.words).split('\n').map(detached) : [];
  if (words.length !== info.vocab + info.forms) throw bad(S.words);
  const postStart = readOffsets(pack, S.postStart, { rows: info.forms });
  const postingCount = postStart.at(info.forms);
  const editIds = pack.array<Uint32Array>(S.editIds);
  const ix: PlaceIndexArrays = {
    vocab: words.slice(0, info.vocab),
    forms: words.slice(info.vocab),
    formStart: readOffsets(pack, S.formStart, { rows: info.vocab, end: info.forms }),
    postStart,
    postings: new Postings(pack.array<Uint8Array>(S.postings), pack.array<Uint32Array>(S.postBlocks), postingCount),
    nameLen: pack.array<Uint8Array>(S.nameLen),
    altLen: pack.array<Uint8Array>(S.altLen),
    addressLen: pack.array<Uint8Array>(S.addressLen),
    nameFlags: pack.array<Uint8Array>(S.nameFlags),
    joinOnly: pack.array<Uint8Array>(S.joinOnly),
    editStart: readOffsets(pack, S.editStart, { end: editIds.length }),
    editIds,
  };
  const { bytes, blockAt } = ix.postings;
  if (!(blockAt instanceof Uint32Array)) throw bad(S.postBlocks);
  if (!(bytes instanceof Uint8Array) || ix.postings.problem(postStart, (x) => postingPlace(x) < count && validField(x)))
    throw bad(S.postings);
  if (ix.joinOnly.length !== info.vocab) throw bad(S.joinOnly);
  const buckets = ix.editStart.length - 1;
  if (buckets < 1 || (buckets & (buckets - 1)) !== 0) throw bad(S.editStart);
  if (!(ix.editIds instanceof Uint32Array) || ix.editIds.some((v) => v >= info.vocab)) throw bad(S.editIds);
  for (const [name, a] of [
    [S.nameLen, ix.nameLen],
    [S.altLen, ix.altLen],
    [S.addressLen, ix.addressLen],
    [S.nameFlags, ix.nameFlags],
  ] as const)
    if (a.length !== count) throw bad(name);
  return ix;
}

/** Whether a posting's field bits hold a Field (the bits above it are JOINED and EXPANDED, either valid). */
function validField(posting: number): boolean {
  return (posting & FIELD_MASK) <= Field.admin;
}

/** Vietnamese text understanding shared by indexing and querying (browser-safe: no Node imports). */
export { fold, normalize, tokens, hasDiacritics, diacriticAgreement, nameKey, type TextToken } from './fold';
export {
  TYPE_WORDS,
  PLACES,
  addressTokens,
  expandAbbreviations,
  type AddressToken,
  type TypeRole,
  type TypeWordEntry,
  type PlaceEntry,
} from './abbreviations';
export { parseAddress, type ParsedAddress, type ParseOptions, type Gazetteer, type AdminKind } from './address';
export { adminNameKeys } from './admin-names';
export { encodePlusCode, decodePlusCode, shortenPlusCode, type PlusCodeArea } from './pluscode';

/** Vietnamese text understanding shared by indexing and querying (browser-safe: no Node imports). */
export { fold, normalize, tokens, hasDiacritics, diacriticAgreement, nameKey } from './fold';
export { addressTokens, expandAbbreviations } from './abbreviations';
export { parseAddress, type ParsedAddress } from './address';
export { adminNameKeys } from './admin-names';
export { encodePlusCode, decodePlusCode, shortenPlusCode } from './pluscode';

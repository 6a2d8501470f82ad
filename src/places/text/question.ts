/**
 * A place asked for in a sentence ("chợ Bến Thành ở đâu", "đường đi đến bệnh viện Chợ Rẫy", "how to get to Ben Thanh
 * market", "where is the Jade Emperor pagoda"): the words of the request before the place and of the question after
 * it are no part of what is searched. They are read as written with their marks; in a text written without any mark,
 * only runs of words that are no name's ("duong di den", "o dau", "quan may").
 */
import { fold } from './fold';

/** Words of a request before the place, NFC lower case; longer runs first where one starts another. */
const LEADING = [
  // Directions asked for.
  'làm sao để đi đến',
  'làm sao để đi tới',
  'làm sao để đến',
  'làm sao để tới',
  'làm sao đi đến',
  'làm sao đi tới',
  'làm thế nào để đến',
  'làm thế nào để tới',
  'làm thế nào để đi đến',
  'cho hỏi đường đến',
  'cho hỏi đường tới',
  'cho hỏi đường đi',
  'hướng dẫn đường đến',
  'hướng dẫn đường tới',
  'hướng dẫn đi đến',
  'hướng dẫn đi tới',
  'chỉ đường đến',
  'chỉ đường tới',
  'chỉ đường đi',
  'chỉ đường',
  'dẫn đường đến',
  'dẫn đường tới',
  'tìm đường đến',
  'tìm đường tới',
  'tìm đường đi',
  'đường đi đến',
  'đường đi tới',
  'đường đi',
  'đường đến',
  'đường tới',
  'cách đi đến',
  'cách đi tới',
  'cách đến',
  'cách tới',
  'đi đến',
  'đi tới',
  // Wishes and asks.
  'mình muốn đến',
  'mình muốn tới',
  'mình muốn đi',
  'tôi muốn đến',
  'tôi muốn tới',
  'tôi muốn đi',
  'em muốn đến',
  'em muốn tới',
  'em muốn đi',
  'muốn đến',
  'muốn tới',
  'cho hỏi',
  'cho mình hỏi',
  'cho tôi hỏi',
  'cho em hỏi',
  'tìm',
  'đến',
  'tới',
  // English.
  'how do i get to',
  'how can i get to',
  'how to get to',
  'how do i go to',
  'how can i go to',
  'how to go to',
  'directions to',
  'direction to',
  'navigate to',
  'take me to',
  'route to',
  'way to',
  'show me',
  'where is',
  'where s',
  'where are',
  'find',
].map((p) => p.split(' '));

/** "bộ" after "đường đi" makes a walking street ("đường đi bộ Nguyễn Huệ"), no request. */
const WALKING = 'bộ';

/** Words of a question after the place, NFC lower case. */
const TRAILING = [
  'nằm ở đâu',
  'ở đâu thế',
  'ở đâu nhỉ',
  'ở đâu',
  'ở chỗ nào',
  'chỗ nào',
  'ở quận mấy',
  'ở quận nào',
  'thuộc quận mấy',
  'thuộc quận nào',
  'quận mấy',
  'quận nào',
  'ở phường nào',
  'thuộc phường nào',
  'phường nào',
  'đi như thế nào',
  'đi thế nào',
  'đi đường nào',
  'đi sao',
  'vậy',
  'ạ',
  'where',
  'please',
].map((p) => p.split(' '));

/** Runs of unmarked words read so in a text without marks: none is a name's ("den" is Đền, "toi" Tôi: not alone). */
const BARE_MIN_WORDS = 2;
const BARE_NOT = new Set(['duong den', 'duong toi', 'di den', 'di toi', 'cach den', 'cach toi', 'muon den', 'di sao']);

/**
 * The text without a request before the place and a question after it; unchanged when they are all it holds.
 * @example withoutQuestion('chợ Bến Thành ở đâu vậy') === 'chợ Bến Thành'
 * @example withoutQuestion('how to get to Ben Thanh market') === 'Ben Thanh market'
 */
export function withoutQuestion(text: string): string {
  const spans = [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
    word: m[0].normalize('NFC').toLowerCase(),
  }));
  const bare = spans.every((s) => fold(s.word) === s.word);
  const matches = (phrase: string[], from: number): boolean => {
    if (from < 0 || from + phrase.length > spans.length) return false;
    if (bare && (phrase.length < BARE_MIN_WORDS || BARE_NOT.has(phrase.map(fold).join(' '))))
      return phrase.every((w) => fold(w) === w) && phrase.every((w, k) => spans[from + k]!.word === w);
    return phrase.every((w, k) => (bare ? fold(w) : w) === spans[from + k]!.word);
  };
  let first = 0;
  let last = spans.length; // words [first, last) are kept
  for (let cut = true; cut;) {
    cut = false;
    for (const p of LEADING)
      if (last - first > p.length && matches(p, first) && spans[first + p.length]!.word !== WALKING) {
        first += p.length;
        cut = true;
        break;
      }
    for (const p of TRAILING)
      if (last - first > p.length && matches(p, last - p.length)) {
        last -= p.length;
        cut = true;
        break;
      }
  }
  if (first === 0 && last === spans.length) return text;
  return text.slice(spans[first]!.at, spans[last - 1]!.end);
}

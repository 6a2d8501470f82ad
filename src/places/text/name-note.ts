/** A note mappers add at the end of a name, in parentheses, and the name without it. */

const LETTER = /\p{L}/u;

/**
 * A name without the note mappers add at its end in parentheses ("Ðồng Khởi (ex Catinat)", "Saigon Square (closed)",
 * "Võ Văn Kiệt (Đông Tây)", "Phước Long (đang xây dựng)"): people call the place by the words before it, and an answer
 * shows them, and a road of the name is that street's (street-line.ts). The whole tag stays one of the place's other
 * names (the pack builder's altNamesOf reads `name` too), so the note's words
 * ("Catinat", "HUTECH" of "University of Technology (HUTECH)") still find it. A name that is only a number before its
 * note ("22 (Snake, Turtle...)") keeps the note.
 */
export function withoutNote(name: string): string {
  const t = name.trim();
  const open = t.lastIndexOf('(');
  if (!t.endsWith(')') || open < 0 || t.indexOf(')') < t.length - 1) return name;
  const before = t.slice(0, open).trimEnd();
  return LETTER.test(before) ? before : name;
}

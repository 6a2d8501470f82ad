/**
 * A small streaming XML tokenizer, enough for OSM XML: it reads a file in chunks, reports start and end
 * tags with decoded attribute values, checks nesting, and ignores text, comments, CDATA, processing
 * instructions and DOCTYPE. Tags split across chunk boundaries are completed from the next chunk.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Thrown by the scanner (and by handlers) for malformed input; the scanner adds file name and line. */
export class XmlError extends Error {
  override name = 'XmlError';
}

/** The attributes of the current start tag. Reused between tags: copy values out, do not keep the object. */
export class XmlAttrs {
  readonly names: string[] = [];
  readonly values: string[] = [];
  count = 0;

  /** The decoded value of attribute `name`, or undefined when absent. */
  get(name: string): string | undefined {
    for (let i = 0; i < this.count; i++) if (this.names[i] === name) return this.values[i];
    return undefined;
  }
}

export interface XmlHandler {
  /** A start tag; `selfClosing` is true for `<x/>` (no matching close call follows). `depth` is 0 for the root. */
  open(name: string, attrs: XmlAttrs, selfClosing: boolean, depth: number): void;
  /** An end tag (or the end of a self-closing tag's element is implied by `selfClosing`). */
  close(name: string, depth: number): void;
}

const CHUNK_BYTES = 1 << 20;
const ENTITY_RE = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);|&/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ATTR_RE = /\s*([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const LINE_END_RE = /\r\n?|[\n\t]/g;

/** Decodes the five predefined XML entities and numeric character references; throws XmlError on others. */
export function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY_RE, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError(`bare "&" in text`);
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!(code >= 1 && code <= 0x10ffff)) throw new XmlError(`bad character reference ${whole}`);
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref];
    if (named === undefined) throw new XmlError(`unknown entity ${whole}`);
    return named;
  });
}

/**
 * Scans the XML file at `path`, calling the handler for every tag in document order.
 *
 * @param progress called after each chunk with (bytes read, file size in bytes)
 * @throws Error naming the file and line for malformed or truncated XML (including XmlErrors raised by
 *   the handler); other errors thrown by the handler pass through unchanged
 */
export function scanXmlFile(path: string, handler: XmlHandler, progress?: (done: number, total: number) => void): void {
  const fd = openSync(path, 'r');
  try {
    new Scanner(fd, fstatSync(fd).size, path, handler, progress).run();
  } finally {
    closeSync(fd);
  }
}

class Scanner {
  private buf = '';
  private i = 0;
  /** Newlines in text already dropped from `buf`, for error line numbers. */
  private linesBefore = 0;
  private filePos = 0;
  private readonly chunk = Buffer.alloc(CHUNK_BYTES);
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly stack: string[] = [];
  private readonly attrs = new XmlAttrs();
  private sawRoot = false;

  constructor(
    private readonly fd: number,
    private readonly total: number,
    private readonly path: string,
    private readonly handler: XmlHandler,
    private readonly progress?: (done: number, total: number) => void,
  ) {}

  run(): void {
    try {
      this.loop();
    } catch (e) {
      if (e instanceof XmlError) throw new Error(`${this.path}: line ${this.line()}: ${e.message}`, { cause: e });
      if (e instanceof TypeError && (e as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
        throw new Error(`${this.path}: near line ${this.line()}: not valid UTF-8`, { cause: e });
      }
      throw e;
    }
  }

  private loop(): void {
    for (;;) {
      const lt = this.buf.indexOf('<', this.i);
      if (lt < 0) {
        this.i = this.buf.length;
        if (!this.more()) break;
        continue;
      }
      this.i = lt;
      const end = this.tagEnd(lt);
      if (end < 0) {
        if (!this.more()) throw new XmlError('file ends inside a tag (truncated?)');
        continue;
      }
      this.tag(lt, end);
      this.i = end + 1;
    }
    if (this.stack.length > 0)
      throw new XmlError(`file ends inside <${this.stack[this.stack.length - 1]}> (truncated?)`);
    if (!this.sawRoot) throw new XmlError('no XML element found');
  }

  /** Drops consumed text and appends the next chunk; false at end of file. */
  private more(): boolean {
    const consumed = this.buf.slice(0, this.i);
    for (let p = consumed.indexOf('\n'); p >= 0; p = consumed.indexOf('\n', p + 1)) this.linesBefore++;
    const n = readSync(this.fd, this.chunk, 0, CHUNK_BYTES, this.filePos);
    this.filePos += n;
    const text = n === 0 ? this.decoder.decode() : this.decoder.decode(this.chunk.subarray(0, n), { stream: true });
    this.buf = this.buf.slice(this.i) + text;
    this.i = 0;
    if (n > 0) this.progress?.(this.filePos, this.total);
    return n > 0;
  }

  private line(): number {
    let lines = this.linesBefore + 1;
    for (let p = this.buf.indexOf('\n'); p >= 0 && p < this.i; p = this.buf.indexOf('\n', p + 1)) lines++;
    return lines;
  }

  /** Index of the `>` that ends the markup starting at `lt`, or -1 if it is not in the buffer yet. */
  private tagEnd(lt: number): number {
    const b = this.buf;
    if (b.startsWith('<!--', lt)) return plus(b.indexOf('-->', lt + 4), 2);
    if (b.startsWith('<![CDATA[', lt)) return plus(b.indexOf(']]>', lt + 9), 2);
    if (b.startsWith('<?', lt)) return plus(b.indexOf('?>', lt + 2), 1);
    // Attribute values may contain a literal '>', so skip over quoted runs.
    let quote = '';
    for (let p = lt + 1; p < b.length; p++) {
      const c = b[p];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') return p;
    }
    return -1;
  }

  private tag(lt: number, end: number): void {
    const b = this.buf;
    const c = b[lt + 1];
    if (c === '!' || c === '?') return; // comment, CDATA, DOCTYPE, processing instruction
    if (c === '/') {
      const name = b.slice(lt + 2, end).trim();
      const open = this.stack.pop();
      if (open !== name) throw new XmlError(open ? `</${name}> closes <${open}>` : `</${name}> without a start tag`);
      this.handler.close(name, this.stack.length);
      return;
    }
    let p = lt + 1;
    while (p < end && !isSpace(b.charCodeAt(p)) && b[p] !== '/') p++;
    const name = b.slice(lt + 1, p);
    if (name === '') throw new XmlError('tag without a name');
    if (this.stack.length === 0 && this.sawRoot) throw new XmlError(`second root element <${name}>`);
    const attrs = this.attrs;
    attrs.count = 0;
    ATTR_RE.lastIndex = p;
    for (let m = ATTR_RE.exec(b); m !== null && ATTR_RE.lastIndex <= end; m = ATTR_RE.exec(b)) {
      const raw = m[2] ?? m[3] ?? '';
      attrs.names[attrs.count] = m[1]!;
      // Attribute-value normalisation: literal line ends and tabs become spaces; &#10; stays a newline.
      attrs.values[attrs.count] = decodeEntities(raw.replace(LINE_END_RE, ' '));
      attrs.count++;
      p = ATTR_RE.lastIndex;
    }
    const rest = b.slice(p, end).trim();
    const selfClosing = rest === '/';
    if (rest !== '' && !selfClosing) throw new XmlError(`malformed tag <${name}> near "${rest.slice(0, 40)}"`);
    const depth = this.stack.length;
    this.sawRoot = true;
    if (!selfClosing) this.stack.push(name);
    this.handler.open(name, attrs, selfClosing, depth);
  }
}

function plus(idx: number, n: number): number {
  return idx < 0 ? -1 : idx + n;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

import type { RequestEvent } from './handler.js';

/** Lines buffered before a write is forced, bytes. */
const MAX_BUFFER = 64 * 1024;

/**
 * Structured request logs: one JSON line per answered request (`time`, `remote`, `method`, `path`, `endpoint`,
 * `status`, `ms`, `bytes`, `key` as the key's name or its stable hash (`keyHash`), `refused` when the usage store refused),
 * never the query string (it carries the key and the user's addresses). Lines are gathered and written once per
 * event-loop turn (or at 64 KB), so logging costs a few microseconds per request. `write` must not throw (a stream
 * reports its errors as events).
 */
export function createRequestLog(write: (text: string) => void): { observe(e: RequestEvent): void; flush(): void } {
  let buffer = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer === '') return;
    const text = buffer;
    buffer = '';
    write(text);
  };
  return {
    observe(e) {
      buffer +=
        JSON.stringify({
          time: new Date().toISOString(),
          remote: e.remoteAddress,
          method: e.method,
          path: e.path,
          endpoint: e.endpoint,
          status: e.status,
          ms: Math.round(e.ms * 1000) / 1000,
          bytes: e.bytes,
          key: e.key,
          refused: e.refused,
        }) + '\n';
      if (buffer.length >= MAX_BUFFER) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

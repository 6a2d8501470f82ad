/**
 * Streaming OSM PBF reader (https://wiki.openstreetmap.org/wiki/PBF_Format), written from scratch.
 *
 * The file is read blob by blob with positioned reads: at any time only one compressed blob (≤ 32 MiB by
 * the format's rules) and its inflated block are in memory, never the whole file.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { BlockDecoder } from './pbf-block.js';
import { ProtoError, ProtoReader, WIRE_BYTES, WIRE_VARINT } from './protobuf.js';
import type { InputInfo, OsmSink, ReadOptions } from './types.js';

/** Format limits from the PBF specification. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;

/** Required features this reader understands; anything else (e.g. "HistoricalInformation") is refused. */
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

/**
 * Reads an OSM PBF file and calls the sink for every element in file order.
 *
 * @param path file to read
 * @param sink receives nodes (degrees), ways and relations
 * @param opts element kinds wanted (default all; unwanted kinds are not decoded) and a progress callback
 *   called after each blob with (bytes read, file size in bytes)
 * @returns format, the header's bbox as [minLon, minLat, maxLon, maxLat] in degrees and its
 *   osmosis replication timestamp (ISO 8601) when present
 * @throws Error naming the file and the byte offset of the offending blob when the file is truncated,
 *   corrupt, compressed with an unsupported method or needs unsupported features
 */
export function readPbf(path: string, sink: OsmSink, opts: ReadOptions = {}): InputInfo {
  const wants = { nodes: opts.nodes ?? true, ways: opts.ways ?? true, relations: opts.relations ?? true };
  const info: InputInfo = { format: 'pbf' };
  const decoder = new BlockDecoder();
  const fd = openSync(path, 'r');
  try {
    const total = fstatSync(fd).size;
    if (total === 0) throw new Error(`${path}: file is empty`);
    const lenBuf = Buffer.alloc(4);
    const headerBuf = Buffer.alloc(MAX_HEADER_BYTES);
    let blobBuf = Buffer.alloc(1024 * 1024);
    let pos = 0;
    let sawHeader = false;
    while (pos < total) {
      const at = pos;
      const fail = (what: string): Error => new Error(`${path}: blob at byte ${at} ${what}`);
      readExact(fd, lenBuf, 4, pos, () => fail('is truncated (file ends inside its length prefix)'));
      const headerLen = lenBuf.readUInt32BE(0);
      if (headerLen === 0 || headerLen > MAX_HEADER_BYTES) throw fail(`is corrupt (blob header length ${headerLen})`);
      readExact(fd, headerBuf, headerLen, pos + 4, () => fail('is truncated (file ends inside its header)'));
      let header: { type: string; dataSize: number };
      try {
        header = parseBlobHeader(headerBuf.subarray(0, headerLen));
      } catch (e) {
        throw wrapProto(e, fail, 'has a corrupt header');
      }
      if (header.dataSize > MAX_BLOB_BYTES)
        throw fail(`is corrupt (data size ${header.dataSize} bytes exceeds 32 MiB)`);
      if (blobBuf.length < header.dataSize) blobBuf = Buffer.alloc(header.dataSize);
      const dataAt = pos + 4 + headerLen;
      readExact(fd, blobBuf, header.dataSize, dataAt, () =>
        fail(`is truncated (needs ${header.dataSize} bytes after byte ${dataAt}, file has ${total - dataAt})`),
      );
      pos = dataAt + header.dataSize;
      // The format says readers skip blob types they do not know.
      if (header.type !== 'OSMHeader' && header.type !== 'OSMData') {
        opts.progress?.(pos, total);
        continue;
      }
      if (header.type === 'OSMData' && !sawHeader) throw fail('is OSMData but no OSMHeader came before it');
      let data: Buffer;
      try {
        data = inflateBlob(blobBuf.subarray(0, header.dataSize));
      } catch (e) {
        throw wrapProto(e, fail, 'is corrupt');
      }
      if (header.type === 'OSMHeader') {
        try {
          readHeaderBlock(data, info);
        } catch (e) {
          throw wrapProto(e, fail, 'has a corrupt OSMHeader');
        }
        sawHeader = true;
      } else {
        try {
          decoder.decode(data, sink, wants);
        } catch (e) {
          // Errors thrown by the sink are the caller's own and pass through untouched.
          throw wrapProto(e, fail, 'has a corrupt data block');
        }
      }
      opts.progress?.(pos, total);
    }
    if (!sawHeader) throw new Error(`${path}: no OSMHeader blob found`);
  } finally {
    closeSync(fd);
  }
  return info;
}

/** Reads exactly `n` bytes at file offset `at` into `buf`, or throws the error made by `onShort`. */
function readExact(fd: number, buf: Buffer, n: number, at: number, onShort: () => Error): void {
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, at + got);
    if (k === 0) throw onShort();
    got += k;
  }
}

/** Turns a ProtoError (zlib failures arrive as ProtoErrors too) into a file/offset-naming error; other errors are returned as is. */
function wrapProto(e: unknown, fail: (what: string) => Error, what: string): unknown {
  if (e instanceof ProtoError) return Object.assign(fail(`${what}: ${e.message}`), { cause: e });
  return e;
}

/** BlobHeader: type(1) string, indexdata(2) bytes, datasize(3) int32. */
function parseBlobHeader(buf: Buffer): { type: string; dataSize: number } {
  const r = new ProtoReader(buf);
  let type = '';
  let dataSize = -1;
  while (!r.done()) {
    const key = r.varint();
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 1 && wire === WIRE_BYTES) {
      const e = r.lengthEnd();
      type = buf.toString('utf8', r.pos, e);
      r.pos = e;
    } else if (field === 3 && wire === WIRE_VARINT) dataSize = r.int64();
    else r.skip(wire);
  }
  if (type === '') throw new ProtoError('blob header has no type');
  if (dataSize < 0) throw new ProtoError('blob header has no data size');
  return { type, dataSize };
}

/** Blob: raw(1), raw_size(2), zlib_data(3); lzma(4), bzip2(5), lz4(6) and zstd(7) are refused. */
function inflateBlob(buf: Buffer): Buffer {
  const r = new ProtoReader(buf);
  let rawSize = -1;
  let raw: Buffer | null = null;
  let zlib: Buffer | null = null;
  while (!r.done()) {
    const key = r.varint();
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 2 && wire === WIRE_VARINT) rawSize = r.int64();
    else if (wire === WIRE_BYTES && field >= 1 && field <= 7) {
      const e = r.lengthEnd();
      if (field === 1) raw = buf.subarray(r.pos, e);
      else if (field === 3) zlib = buf.subarray(r.pos, e);
      else {
        const name = ['', '', '', '', 'lzma', 'bzip2', 'lz4', 'zstd'][field];
        throw new ProtoError(`uses ${name} compression, which this reader does not support (only zlib and raw)`);
      }
      r.pos = e;
    } else r.skip(wire);
  }
  if (raw) return raw;
  if (!zlib) throw new ProtoError('blob has no data');
  let out: Buffer;
  try {
    out = inflateSync(zlib);
  } catch (e) {
    throw new ProtoError(`zlib data does not inflate (${(e as Error).message})`);
  }
  if (rawSize >= 0 && out.length !== rawSize) {
    throw new ProtoError(`inflated to ${out.length} bytes but raw_size says ${rawSize}`);
  }
  return out;
}

/**
 * HeaderBlock: bbox(1) {left(1), right(2), top(3), bottom(4)} sint64 nanodegrees, required_features(4),
 * osmosis_replication_timestamp(32) int64 seconds since the epoch.
 */
function readHeaderBlock(data: Buffer, info: InputInfo): void {
  const r = new ProtoReader(data);
  while (!r.done()) {
    const key = r.varint();
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 1 && wire === WIRE_BYTES) {
      const e = r.lengthEnd();
      const b = new ProtoReader(data, r.pos, e);
      const box = [0, 0, 0, 0]; // left, right, top, bottom
      while (!b.done()) {
        const k = b.varint();
        const f = k >>> 3;
        if (f >= 1 && f <= 4 && (k & 7) === WIRE_VARINT) box[f - 1] = b.svarint() / 1e9;
        else b.skip(k & 7);
      }
      info.bounds = [box[0]!, box[3]!, box[1]!, box[2]!];
      r.pos = e;
    } else if (field === 4 && wire === WIRE_BYTES) {
      const e = r.lengthEnd();
      const feature = data.toString('utf8', r.pos, e);
      if (!SUPPORTED_FEATURES.has(feature)) {
        throw new ProtoError(`requires feature "${feature}", which this reader does not support`);
      }
      r.pos = e;
    } else if (field === 32 && wire === WIRE_VARINT) {
      info.timestamp = new Date(r.int64() * 1000).toISOString().replace('.000Z', 'Z');
    } else r.skip(wire);
  }
}

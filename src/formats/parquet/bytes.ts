// A growable little-endian byte buffer for one Parquet page's body, and the RLE / bit-packing hybrid
// that Parquet uses for definition levels and dictionary indexes.

/** Texts up to this long are written by a loop here when they are ASCII; longer ones by the runtime. */
const SHORT_TEXT = 32;

/** Node's own UTF-8 writer, which skips `write`'s argument handling. */
interface WritingBuffer extends Buffer {
  utf8Write(text: string, offset: number, length: number): number;
}

/** Bytes appended at the end, growing by doubling; `bytes()` is a view, valid until the next append. */
export class PageBytes {
  private buffer: WritingBuffer;
  length = 0;

  constructor(initialSize = 1 << 16) {
    this.buffer = Buffer.allocUnsafe(initialSize) as WritingBuffer;
  }

  /** Room for `size` more bytes. */
  reserve(size: number): void {
    const needed = this.length + size;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity) as WritingBuffer;
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  reset(): void {
    this.length = 0;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  uint8(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  int32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }

  /** A whole number up to 2^53 in magnitude as INT64, without making a bigint. */
  int64FromNumber(value: number): void {
    this.reserve(8);
    const high = Math.floor(value / 4294967296);
    this.buffer.writeUInt32LE(value - high * 4294967296, this.length);
    this.length = this.buffer.writeInt32LE(high, this.length + 4);
  }

  int64(value: bigint): void {
    this.reserve(8);
    this.length = this.buffer.writeBigInt64LE(value, this.length);
  }

  double(value: number): void {
    this.reserve(8);
    this.length = this.buffer.writeDoubleLE(value, this.length);
  }

  /** PLAIN BYTE_ARRAY: the UTF-8 length, then the bytes (lone surrogates become U+FFFD). */
  text(value: string): void {
    this.reserve(4 + value.length * 3);
    const { buffer } = this;
    const at = this.length + 4;
    let written = 0;
    // A short ASCII text is copied here: a call into the runtime costs more than its few bytes.
    if (value.length <= SHORT_TEXT) {
      while (written < value.length) {
        const code = value.charCodeAt(written);
        if (code > 0x7f) break;
        buffer[at + written] = code;
        written++;
      }
    }
    if (written < value.length) written = buffer.utf8Write(value, at, buffer.length - at);
    buffer.writeUInt32LE(written, this.length);
    this.length = at + written;
  }

  varInt(value: number): void {
    let rest = value;
    while (rest > 0x7f) {
      this.uint8((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    this.uint8(rest);
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
}

/** Runs of at least this many equal values are written as RLE runs, the rest bit-packed. */
const MIN_RUN = 8;

/**
 * Appends `values[start..end)` in the RLE / bit-packing hybrid encoding, each value `bitWidth` bits
 * (at most 32). Bit-packed groups hold 8 values; the last group is padded with zeros, which a reader
 * ignores past the count it knows from the page.
 */
export function appendHybrid(
  out: PageBytes,
  values: Uint8Array | Int32Array,
  start: number,
  end: number,
  bitWidth: number,
): void {
  const width = (bitWidth + 7) >> 3;
  let i = start;
  let packedFrom = -1;
  while (i < end) {
    const value = values[i] as number;
    let run = 1;
    while (i + run < end && values[i + run] === value) run++;
    if (run >= MIN_RUN) {
      if (packedFrom !== -1) {
        appendPacked(out, values, packedFrom, i, end, bitWidth);
        packedFrom = -1;
      }
      out.varInt(run * 2);
      for (let byte = 0; byte < width; byte++) out.uint8((value >>> (byte * 8)) & 0xff);
      i += run;
    } else {
      if (packedFrom === -1) packedFrom = i;
      // Groups of 8: a run that starts inside a group is packed with it.
      i = Math.min(end, i + MIN_RUN);
      while ((i - packedFrom) % MIN_RUN !== 0 && i < end) i++;
    }
  }
  if (packedFrom !== -1) appendPacked(out, values, packedFrom, end, end, bitWidth);
}

/** Bit-packs `values[from..to)` in groups of 8, padded with zeros past `limit`. */
function appendPacked(
  out: PageBytes,
  values: Uint8Array | Int32Array,
  from: number,
  to: number,
  limit: number,
  bitWidth: number,
): void {
  const groups = Math.ceil((to - from) / MIN_RUN);
  out.varInt((groups << 1) | 1);
  if (bitWidth === 0) return;
  out.reserve(groups * bitWidth);
  let buffer = 0;
  let bits = 0;
  const stop = from + groups * MIN_RUN;
  for (let i = from; i < stop; i++) {
    const value = i < limit ? (values[i] as number) : 0;
    // Up to 32 bits of value on top of fewer than 8 pending: split so nothing shifts past 32 bits.
    if (bitWidth > 24) {
      buffer |= (value & 0xffff) << bits;
      bits += 16;
      while (bits >= 8) {
        out.uint8(buffer & 0xff);
        buffer >>>= 8;
        bits -= 8;
      }
      buffer |= (value >>> 16) << bits;
      bits += bitWidth - 16;
    } else {
      buffer |= value << bits;
      bits += bitWidth;
    }
    while (bits >= 8) {
      out.uint8(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out.uint8(buffer & 0xff);
}

/** Bits needed for values 0..`max`. */
export const bitWidthOf = (max: number): number => (max === 0 ? 0 : 32 - Math.clz32(max));

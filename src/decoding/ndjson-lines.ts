// Splits a byte stream into NDJSON lines in linear time: each chunk is scanned once for newlines and
// the pieces of an unfinished line are kept as a list, joined only when the line ends. A line longer
// than the cap stops the stream instead of growing without end.

/**
 * @example
 * const lines = new NdjsonLines(1 << 20, () => new Error("line too long"));
 * lines.push(Buffer.from('{"a":1}\n{"b"')); // [bytes of '{"a":1}']
 * lines.push(Buffer.from(':2}\n'));         // [bytes of '{"b":2}']
 * lines.end();                              // undefined (nothing left over)
 */
export class NdjsonLines {
  private pieces: Uint8Array[] = [];
  private pending = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly tooLong: () => Error,
  ) {}

  /** The non-empty lines this chunk finishes, as their bytes without the newline. */
  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.keep(chunk.subarray(start, newline));
      const line = this.take();
      if (line !== undefined) lines.push(line);
      start = newline + 1;
    }
    this.keep(chunk.subarray(start));
    return lines;
  }

  /** The last line's bytes when the stream ends without a newline. */
  end(): Uint8Array | undefined {
    return this.take();
  }

  private keep(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.pending += piece.length;
    if (this.pending > this.maxLineBytes) throw this.tooLong();
    this.pieces.push(piece);
  }

  private take(): Uint8Array | undefined {
    const bytes = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces);
    this.pieces = [];
    this.pending = 0;
    return bytes === undefined || bytes.length === 0 ? undefined : bytes;
  }
}

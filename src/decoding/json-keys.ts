// The keys each open object has named so far, while JSON bytes are read (decoding/json-bytes.ts): a key
// named twice in one object is what JSON.parse keeps once (the last), so bytes copied as they came
// would say something else. Cheap per key: a 64-bit mask per object of the keys' hashes, and the keys'
// bytes compared only when a hash comes again.

/** Objects nested deeper than the readers allow are refused before they reach this. */
const MAX_OBJECTS = 514;
const EMPTY = new Uint8Array(0);

export class UniqueKeys {
  private bytes: Uint8Array = EMPTY;
  private froms = new Int32Array(64);
  private tos = new Int32Array(64);
  private top = 0;
  private depth = 0;
  /** Per open object: where its keys start in `froms`/`tos`, and its two 32-bit masks. */
  private readonly starts = new Int32Array(MAX_OBJECTS);
  private readonly masks = new Uint32Array(MAX_OBJECTS * 2);

  /** Reads keys of `bytes` from now on, no object open. */
  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.top = 0;
    this.depth = 0;
  }

  open(): void {
    const depth = ++this.depth;
    if (depth >= MAX_OBJECTS) throw new RangeError("objects nested too deep to check their keys");
    this.starts[depth] = this.top;
    this.masks[2 * depth] = 0;
    this.masks[2 * depth + 1] = 0;
  }

  close(): void {
    this.top = this.starts[this.depth--] as number;
  }

  /** Notes the key `bytes[from, to)` (unescaped) of the innermost open object; false if it has it. */
  add(from: number, to: number): boolean {
    const { bytes } = this;
    const length = to - from;
    const hash =
      length === 0
        ? 0
        : (length * 7 +
            (bytes[from] as number) +
            (bytes[to - 1] as number) * 3 +
            (bytes[from + (length >> 1)] as number) * 5) &
          63;
    const word = 2 * this.depth + (hash >> 5);
    const bit = 1 << (hash & 31);
    if (((this.masks[word] as number) & bit) !== 0 && this.has(from, length)) return false;
    this.masks[word] = (this.masks[word] as number) | bit;
    if (this.top === this.froms.length) this.grow();
    this.froms[this.top] = from;
    this.tos[this.top] = to;
    this.top++;
    return true;
  }

  private has(from: number, length: number): boolean {
    const { bytes, froms, tos } = this;
    for (let k = this.starts[this.depth] as number; k < this.top; k++) {
      const other = froms[k] as number;
      if ((tos[k] as number) - other !== length) continue;
      let same = 0;
      while (same < length && bytes[other + same] === bytes[from + same]) same++;
      if (same === length) return true;
    }
    return false;
  }

  private grow(): void {
    const froms = new Int32Array(this.froms.length * 2);
    const tos = new Int32Array(this.tos.length * 2);
    froms.set(this.froms);
    tos.set(this.tos);
    this.froms = froms;
    this.tos = tos;
  }
}

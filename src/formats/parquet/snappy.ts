// Snappy compression of one Parquet page, into one buffer reused from page to page. The algorithm is
// hyparquet-writer's (from snappyjs, MIT, Copyright (c) 2016 Zhipeng Jia); it writes into a byte array
// sized for the worst case instead of appending byte by byte, which is most of its cost in a profile.

const MAX_HASH_TABLE_BITS = 14;
const MAX_OFFSET = 0xffff;
const INPUT_MARGIN = 15;
const hashTables: Uint32Array[] = [];
let out = new Uint8Array(1 << 16);
let at = 0;

const hashOf = (key: number, shift: number): number => Math.imul(key, 0x1e35a7bd) >>> shift;

const load32 = (input: Uint8Array, pos: number): number =>
  (input[pos] as number) |
  ((input[pos + 1] as number) << 8) |
  ((input[pos + 2] as number) << 16) |
  ((input[pos + 3] as number) << 24);

const equals32 = (input: Uint8Array, a: number, b: number): boolean =>
  input[a] === input[b] &&
  input[a + 1] === input[b + 1] &&
  input[a + 2] === input[b + 2] &&
  input[a + 3] === input[b + 3];

function emitLiteral(input: Uint8Array, from: number, length: number): void {
  if (length <= 60) {
    out[at++] = (length - 1) << 2;
  } else {
    const value = length - 1;
    const bytes = value < 0x100 ? 1 : value < 0x10000 ? 2 : value < 0x1000000 ? 3 : 4;
    out[at++] = (59 + bytes) << 2;
    for (let i = 0; i < bytes; i++) out[at++] = (value >>> (i * 8)) & 0xff;
  }
  // Short literals (most of them) are copied byte by byte: a subarray per literal is garbage.
  if (length <= 32) {
    for (let i = from; i < from + length; i++) out[at++] = input[i] as number;
    return;
  }
  out.set(input.subarray(from, from + length), at);
  at += length;
}

function emitCopyUpTo64(offset: number, length: number): void {
  if (length < 12 && offset < 2048) {
    out[at++] = 1 + ((length - 4) << 2) + ((offset >>> 8) << 5);
    out[at++] = offset & 0xff;
  } else {
    out[at++] = 2 + ((length - 1) << 2);
    out[at++] = offset & 0xff;
    out[at++] = offset >>> 8;
  }
}

function emitCopy(offset: number, length: number): void {
  let rest = length;
  while (rest >= 68) {
    emitCopyUpTo64(offset, 64);
    rest -= 64;
  }
  if (rest > 64) {
    emitCopyUpTo64(offset, 60);
    rest -= 60;
  }
  emitCopyUpTo64(offset, rest);
}

/** The Snappy block of `input`: a view, valid until the next call. */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const size = input.length;
  const worst = 32 + size + Math.ceil(size / 6);
  if (out.length < worst) out = new Uint8Array(Math.max(worst, out.length * 2));
  at = 0;
  for (let rest = size; ; rest >>>= 7) {
    if (rest < 0x80) {
      out[at++] = rest;
      break;
    }
    out[at++] = (rest & 0x7f) | 0x80;
  }
  compress(input);
  return out.subarray(0, at);
}

function compress(input: Uint8Array): void {
  const end = input.length;
  let bits = 1;
  while (1 << bits <= end && bits <= MAX_HASH_TABLE_BITS) bits++;
  bits--;
  const shift = 32 - bits;
  const table = (hashTables[bits] ??= new Uint32Array(1 << bits));
  table.fill(0);
  let nextEmit = 0;
  if (end >= INPUT_MARGIN) {
    const limit = end - INPUT_MARGIN;
    let ip = 1;
    let nextHash = hashOf(load32(input, ip), shift);
    for (;;) {
      let skip = 32;
      let nextIp = ip;
      let candidate = 0;
      let found = false;
      do {
        ip = nextIp;
        const hash = nextHash;
        const step = skip >>> 5;
        skip++;
        nextIp = ip + step;
        if (ip > limit) break;
        nextHash = hashOf(load32(input, nextIp), shift);
        candidate = table[hash] as number;
        table[hash] = ip;
        found = ip - candidate <= MAX_OFFSET && equals32(input, ip, candidate);
      } while (!found);
      if (!found) break;
      emitLiteral(input, nextEmit, ip - nextEmit);
      let more = true;
      do {
        const base = ip;
        let matched = 4;
        while (ip + matched < end && input[ip + matched] === input[candidate + matched]) matched++;
        ip += matched;
        emitCopy(base - candidate, matched);
        nextEmit = ip;
        if (ip >= limit) {
          more = false;
          break;
        }
        table[hashOf(load32(input, ip - 1), shift)] = ip - 1;
        const current = hashOf(load32(input, ip), shift);
        candidate = table[current] as number;
        table[current] = ip;
      } while (ip - candidate <= MAX_OFFSET && equals32(input, ip, candidate));
      if (!more) break;
      ip++;
      nextHash = hashOf(load32(input, ip), shift);
    }
  }
  if (nextEmit < end) emitLiteral(input, nextEmit, end - nextEmit);
}

// Short ASCII strings of a column as strings already made: a column's values repeat from record to
// record (a state, a type, a domain), and slicing each one out of the bytes again was the reader's
// largest cost (a call into the runtime per string, 160 ns) and most of its garbage.
import type { SlicingBuffer } from "./json-strings.js";

/** Strings longer than this are sliced: they rarely repeat, and hashing them costs more. */
export const CACHED_TEXT_MAX = 40;

const ENTRIES = 4096;

/** A table of recent strings by a hash of their bytes and a salt (the column), checked on each use. */
export class TextCache {
  private readonly texts: (string | undefined)[] = new Array<string | undefined>(ENTRIES).fill(undefined);
  /** Whether the last `hashed` made a new string. */
  missed = false;

  /**
   * The text of the ASCII bytes `bytes[from, to)` (no escape, no byte over 0x7f, at most
   * CACHED_TEXT_MAX long): the string kept for the same bytes, else a new one, kept from then on.
   */
  text(bytes: SlicingBuffer, from: number, to: number, salt: number): string {
    let hash = textHashStart(salt);
    for (let i = from; i < to; i++) hash = textHashStep(hash, bytes[i] as number);
    return this.hashed(hash, bytes, from, to);
  }

  /** `text` for bytes whose hash (`textHashStart`, then `textHashStep` per byte) is already known. */
  hashed(hash: number, bytes: SlicingBuffer, from: number, to: number): string {
    const entry = (hash ^ (hash >>> 15)) & (ENTRIES - 1);
    const kept = this.texts[entry];
    if (kept !== undefined && kept.length === to - from) {
      let k = 0;
      while (k < kept.length && kept.charCodeAt(k) === bytes[from + k]) k++;
      if (k === kept.length) {
        this.missed = false;
        return kept;
      }
    }
    this.missed = true;
    const text = bytes.latin1Slice(from, to);
    this.texts[entry] = text;
    return text;
  }
}

/** The hash of no bytes yet, salted (by the column: its texts are kept apart from other columns'). */
export const textHashStart = (salt: number): number => Math.imul(salt + 1, 0x9e3779b1);
export const textHashStep = (hash: number, byte: number): number => Math.imul(hash ^ byte, 0x01000193);

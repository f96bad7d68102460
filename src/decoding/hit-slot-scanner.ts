// The scalar values of a hit's column paths read from its bytes, one per slot: short ASCII text
// through the text cache, a time under timestamp columns straight to epoch milliseconds, numbers exact
// past 2^53. The subclass walks the objects and decides which slot a key is.
import type { Column } from "../core/contracts.js";
import { FALSE, NULL, QUOTE, TRUE } from "./json-bytes.js";
import { columnPaths, timestampOnlySlots } from "./column-paths.js";
import type { ColumnPaths } from "./column-paths.js";
import { HitFieldsScanner } from "./hit-fields-scanner.js";
import { DayStarts, isoMillis } from "./iso-millis.js";
import { CACHED_TEXT_MAX, textHashStart, textHashStep } from "./text-cache.js";

const BACKSLASH = 0x5c;

export abstract class HitSlotScanner extends HitFieldsScanner {
  protected readonly paths: ColumnPaths;
  /** Per slot, the value read for the hit (undefined: missing). */
  protected readonly values: unknown[];
  private readonly days = new DayStarts();
  /** 1 for a slot only timestamp columns read (the number is what each would coerce the text to). */
  private readonly timeSlots: Uint8Array;

  constructor(columns: readonly Column[], v3: boolean) {
    super(v3);
    this.paths = columnPaths(columns);
    this.values = new Array<unknown>(this.paths.slotCount).fill(undefined);
    this.timeSlots = timestampOnlySlots(columns, this.paths);
  }

  /**
   * A string of at most CACHED_TEXT_MAX plain ASCII bytes, scanned and hashed for the text cache in one
   * pass: its value is set and the position after it returned. -1 for any other string (read in full).
   */
  private shortText(at: number, slot: number): number {
    const { bytes } = this;
    const limit = Math.min(this.end, at + 2 + CACHED_TEXT_MAX);
    let hash = textHashStart(slot);
    let i = at + 1;
    for (; i < limit; i++) {
      const c = bytes[i] as number;
      if (c === QUOTE || c < 0x20 || c === BACKSLASH || c > 0x7e) break;
      hash = textHashStep(hash, c);
    }
    if (i >= limit || bytes[i] !== QUOTE) return -1;
    this.values[slot] = this.texts.hashed(hash, bytes, at + 1, i);
    return i + 1;
  }

  protected readScalar(at: number, byte: number, slot: number): number {
    let end: number;
    let value: unknown;
    if (byte === QUOTE && this.timeSlots[slot] !== 1) {
      end = this.shortText(at, slot);
      if (end >= 0) return end;
    }
    if (byte === QUOTE) {
      end = this.string(at);
      if (end < 0) return end;
      const plain = !this.escaped && !this.wide;
      // A time under timestamp columns only: the number their coercer would make of the text.
      const millis =
        plain && this.timeSlots[slot] === 1 ? isoMillis(this.bytes, at + 1, end - 1, this.days) : NaN;
      if (!Number.isNaN(millis)) value = millis;
      else
        value =
          !plain || end - at - 2 > CACHED_TEXT_MAX
            ? this.text(at + 1, end - 1, this.escaped, this.wide)
            : this.texts.text(this.bytes, at + 1, end - 1, slot);
    } else if (byte === 0x74 || byte === 0x66 || byte === 0x6e) {
      value = byte === 0x74 ? true : byte === 0x66 ? false : null;
      end = this.literal(at, byte === 0x74 ? TRUE : byte === 0x66 ? FALSE : NULL);
    } else {
      end = this.number(at);
      value = end >= 0 ? this.exactNumberValue(at, end) : 0;
    }
    if (end >= 0) this.values[slot] = value;
    return end;
  }
}

// The hit as the hit columns reader walks it (hit-columns-reader.ts): its own fields read on the one
// walk of a hit (hit-walk.ts) and checked as the hit check of the paging stream checks them
// (HitFields), and the scalar values of its column paths read from its bytes, one per slot: short
// ASCII text through the text cache, a time under timestamp columns straight to epoch milliseconds,
// numbers exact past 2^53. The subclass walks `_source`'s objects and decides which slot a key is.
import type { Column } from "../core/contracts.js";
import { BACKSLASH, FALSE, JsonBytes, NULL, QUOTE, TRUE } from "./json-bytes.js";
import { jsonFailureMessage } from "./json-failures.js";
import { columnPaths, timestampOnlySlots } from "./column-paths.js";
import type { ColumnPaths } from "./column-paths.js";
import { HitFields, KEY_ID, KEY_INDEX } from "./hit-walk.js";
import { DayStarts, isoMillis } from "./iso-millis.js";
import { CACHED_TEXT_MAX, TextCache, textHashStart, textHashStep } from "./text-cache.js";

/** The position a refusal of the hit's own rules returns (JSON_FAILURE's are -1 to -15). */
const REFUSED = -100;

/**
 * A column whose short texts missed the text cache this many times in a row (ids, names with a number)
 * is read without it for the next UNCACHED_RUN values: hashing a value and comparing it with the
 * string kept under its hash only costs when the value is new each time. Then it is tried again.
 */
const MISSES_IN_A_ROW = 32;
const UNCACHED_RUN = 4096;

/** Shared by every read that finds no unknown field. */
export const NONE: readonly string[] = [];

/**
 * The fields no column holds, as the report names them: `unknown` as met (undefined where a repeated
 * key made one void), each once, with `_id` and `_index` when no column takes them.
 */
export function unknownFieldNames(
  unknown: readonly (string | undefined)[],
  columnNames: ReadonlySet<string>,
): readonly string[] {
  // A key repeated outside the column paths is named twice; JSON.parse keeps it once.
  const seen = new Set<string>();
  for (const name of unknown) if (name !== undefined) seen.add(name);
  if (!columnNames.has(KEY_ID)) seen.add(KEY_ID);
  if (!columnNames.has(KEY_INDEX)) seen.add(KEY_INDEX);
  return seen.size === 0 ? NONE : [...seen];
}

export abstract class HitSlotScanner extends JsonBytes {
  /** The hit's `_id` and `_index`, once read. */
  id = "";
  index = "";
  /** Why the hit was refused, set with REFUSED (a grammar failure is named from its position). */
  private refusal = "";
  /** Where the hit's own fields are; `_source` is read by `readSource`. */
  private readonly fields: HitFields;
  /** Short ASCII strings already made, by their bytes (index names and values). */
  protected readonly texts = new TextCache();
  protected readonly paths: ColumnPaths;
  /** Per slot, the value read for the hit (undefined: missing). */
  protected readonly values: unknown[];
  private readonly days = new DayStarts();
  /** 1 for a slot only timestamp columns read (the number is what each would coerce the text to). */
  private readonly timeSlots: Uint8Array;
  /** Per slot, the text cache's misses in a row, and the values still to read without it. */
  private readonly misses: Uint8Array;
  private readonly uncached: Uint16Array;

  constructor(columns: readonly Column[], v3: boolean) {
    super();
    this.fields = new HitFields(v3 ? "v3Hit" : "hit", undefined, (at) => this.readSource(at));
    this.paths = columnPaths(columns);
    this.values = new Array<unknown>(this.paths.slotCount).fill(undefined);
    this.timeSlots = timestampOnlySlots(columns, this.paths);
    this.misses = new Uint8Array(this.paths.slotCount);
    this.uncached = new Uint16Array(this.paths.slotCount);
  }

  /**
   * Where the closing quote of a key at `from` is when the key is exactly `key` (bytes no JSON string
   * holds unescaped, so an equal run of bytes followed by a quote is that key and nothing else); -1
   * otherwise.
   */
  protected keyAt(from: number, key: Uint8Array): number {
    const close = from + key.length;
    return this.at(close) === QUOTE && this.matches(from, close, key) ? close : -1;
  }

  protected fail(reason: string): number {
    this.refusal = reason;
    return REFUSED;
  }

  /** What the failure position `at` (a step's negative return) means. */
  protected failureAt(at: number): string {
    return at === REFUSED ? this.refusal : jsonFailureMessage(at);
  }

  /** Reads the `_source` object at `at`, two containers deep; returns the position after it or -1. */
  protected abstract readSource(at: number): number;

  /** The hit at `at`; returns the position after it, or a failure position. */
  protected readHit(at: number): number {
    if (this.at(at) !== 0x7b) return this.fail("the hit is not an object");
    const fields = this.fields;
    fields.reset();
    const end = fields.walk(this, at);
    if (end < 0) return end;
    if (!fields.fitShape()) return this.fail("the hit's own fields do not have the hit schema's shape");
    this.id = this.text(fields.id + 1, fields.idEnd - 1, fields.idEscaped, fields.idWide);
    // Index names repeat from hit to hit: kept as one string; ids are new each time.
    const { index, indexEnd } = fields;
    this.index =
      !fields.indexEscaped && !fields.indexWide && indexEnd - index - 2 <= CACHED_TEXT_MAX
        ? this.texts.text(this.bytes, index + 1, indexEnd - 1, -1)
        : this.text(index + 1, indexEnd - 1, fields.indexEscaped, fields.indexWide);
    return end;
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
    const texts = this.texts;
    this.values[slot] = texts.hashed(hash, bytes, at + 1, i);
    if (!texts.missed) this.misses[slot] = 0;
    else if (++(this.misses[slot] as number) === MISSES_IN_A_ROW) {
      this.misses[slot] = 0;
      this.uncached[slot] = UNCACHED_RUN;
    }
    return i + 1;
  }

  /** `shortText` without the text cache, for a column whose values do not repeat. */
  private newText(at: number, slot: number): number {
    const { bytes } = this;
    const limit = Math.min(this.end, at + 2 + CACHED_TEXT_MAX);
    let i = at + 1;
    for (; i < limit; i++) {
      const c = bytes[i] as number;
      if (c === QUOTE || c < 0x20 || c === BACKSLASH || c > 0x7e) break;
    }
    if (i >= limit || bytes[i] !== QUOTE) return -1;
    this.values[slot] = bytes.latin1Slice(at + 1, i);
    (this.uncached[slot] as number)--;
    return i + 1;
  }

  protected readScalar(at: number, byte: number, slot: number): number {
    let end: number;
    let value: unknown;
    if (byte === QUOTE && this.timeSlots[slot] !== 1) {
      end = this.uncached[slot] === 0 ? this.shortText(at, slot) : this.newText(at, slot);
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

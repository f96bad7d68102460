// Reads the column values of a search hit straight from its bytes, in one pass and without building
// the hit's objects: the values, the hit's identity and the fields no column holds, exactly as parsing
// the hit, making it a row (`hitAsRow`), reading each column (`createColumnReader`) and coercing it
// (the format's coercers, `parquetCoercers` for Parquet) would give them, or a reason to take that
// path instead.
import type { Column } from "../core/contracts.js";
import type { ColumnCoercers } from "../core/hit-reader.js";
import type { ColumnValue } from "../core/record-batch.js";
import { childByBytes, childByKey, columnPaths } from "./column-paths.js";
import type { PathNode } from "./column-paths.js";
import { isIdentityKey, KEY_ID, KEY_INDEX } from "./hit-walk.js";
import { COLON, MAX_JSON_DEPTH, QUOTE } from "./json-bytes.js";
import { JSON_FAILURE } from "./json-failures.js";
import { parseJson } from "./json-exact.js";
import { HitColumnValues } from "./hit-column-values.js";
import { HitSlotScanner, NONE, unknownFieldNames } from "./hit-slot-scanner.js";

/**
 * The outcome of one `read`, in one object the reader reuses: valid until its next `read`.
 * `failure` is undefined when the hit was read; otherwise it names what the reader refused, nothing
 * was written, and the caller parses the hit with JSON.parse, whose schema check names the problem.
 */
export interface HitColumnsRead {
  failure: string | undefined;
  id: string;
  index: string;
  /**
   * The fields no column holds, as `unknownFields` names them; in the order met in the bytes (a field
   * whose key repeats is named where it first appears), which may differ from `unknownFields`' order.
   */
  unknownFields: readonly string[];
  /** The characters of the string values written to text columns (ColumnBuffers' size estimate). */
  textLength: number;
  /** Where the hit's bytes end: `end` itself, or, read as a prefix, wherever the hit closed. */
  end: number;
  /** Whether a string of the hit, anywhere in it, holds an escaped lone surrogate. */
  loneSurrogate: boolean;
}

/** Stands for a key of `_source` named `_id` or `_index`, whose value the hit's own replaces. */
const IDENTITY = columnPaths([]).root;

/**
 * Reads the column values of hits; one per output file (it keeps per-read state). `v3`: v3 hits carry
 * `_score` (a number or null) and `sort`; v2 hits may leave `_score` out. `coercers`: the format's
 * (Format.takes), which make each value the column's.
 * @example
 * const reader = new HitColumnsReader(columns, true, coercers);
 * const read = reader.read(element.bytes, element.start, element.end, values);
 * if (read.failure !== undefined) fallBackToJsonParse(element);
 */
export class HitColumnsReader extends HitSlotScanner {
  private readonly columnValues: HitColumnValues;
  private readonly names: ReadonlySet<string>;
  /** The fields no column holds, undefined where a repeated key made them void. */
  private unknown: (string | undefined)[] = [];
  /** Numbers each object read, so a key knows whether it repeats within its object. */
  private serial = 0;
  private readonly result: HitColumnsRead = {
    failure: undefined,
    id: "",
    index: "",
    unknownFields: NONE,
    textLength: 0,
    end: -1,
    loneSurrogate: false,
  };
  /** The slots of the columns `_id` and `_index`, which the hit's own identity fills (-1: no column). */
  private readonly idSlot: number;
  private readonly indexSlot: number;

  constructor(columns: readonly Column[], v3: boolean, coercers: ColumnCoercers) {
    super(columns, v3);
    this.columnValues = new HitColumnValues(columns, this.paths, coercers);
    this.names = new Set(columns.map((column) => column.name));
    const top = this.paths.root.children;
    this.idSlot = top.find((child) => child.key === KEY_ID)?.slot ?? -1;
    this.indexSlot = top.find((child) => child.key === KEY_INDEX)?.slot ?? -1;
  }

  /**
   * Reads the hit in `bytes[start, end)` and, when it is valid, writes one value at `row` in each
   * column's array of `into` (in `columns` order; by default after the values already there). On
   * failure nothing is written. With `prefix`, the hit starts at `start` and may close anywhere before
   * `end`; the result's `end` says where.
   */
  read(
    bytes: Uint8Array,
    start: number,
    end: number,
    into: ColumnValue[][],
    prefix = false,
    row = into[0]?.length ?? 0,
  ): HitColumnsRead {
    const result = this.result;
    this.reset(bytes, end);
    result.unknownFields = NONE;
    result.textLength = 0;
    let at = this.readHit(this.space(start));
    if (at >= 0 && !prefix && this.space(at) !== end) at = this.fail("bytes follow the hit");
    result.failure = at < 0 ? this.failureAt(at) : undefined;
    result.end = at;
    result.loneSurrogate = this.loneSurrogate;
    if (at < 0) return result;
    // A value its column refuses (int64's rule) is left to the parsed path, whose error names it.
    if (!this.finish(into, row)) result.failure = "a value its column does not take";
    return result;
  }

  /**
   * Reads `_source`'s values for the columns; a `_source` given again replaces all the first gave, as
   * JSON.parse keeps the last.
   */
  protected readSource(at: number): number {
    this.values.fill(undefined);
    this.unknown.length = 0;
    return this.readObject(at, this.paths.root, 2, true);
  }

  /** False, with nothing written, when a column's coercer refuses its value. */
  private finish(into: ColumnValue[][], row: number): boolean {
    const result = this.result;
    result.id = this.id;
    result.index = this.index;
    if (this.idSlot >= 0) this.values[this.idSlot] = this.id;
    if (this.indexSlot >= 0) this.values[this.indexSlot] = this.index;
    if (this.unknown.length > 0 || this.idSlot < 0 || this.indexSlot < 0)
      result.unknownFields = unknownFieldNames(this.unknown, this.names);
    const textLength = this.columnValues.write(this.values, into, row);
    if (textLength < 0) return false;
    result.textLength = textLength;
    return true;
  }

  /**
   * The object at `at`, whose path is `node`, `depth` containers deep. Recursion follows only the
   * column paths (a few levels); everything else is checked by `skipValue`'s loop. `report`: name the
   * fields no column holds (not under a column, whose whole value holds them).
   */
  private readObject(at: number, node: PathNode, depth: number, report: boolean): number {
    if (depth > MAX_JSON_DEPTH) return JSON_FAILURE.tooDeep;
    const serial = ++this.serial;
    const atTop = node === this.paths.root;
    let i = this.space(at + 1);
    if (this.at(i) === 0x7d) return i + 1;
    // Records of a kind list their keys in the same order: the key that followed this one last time is
    // tried first, compared as bytes, before the key is scanned and looked up.
    let previous: PathNode | undefined;
    for (;;) {
      if (this.at(i) !== QUOTE) return JSON_FAILURE.keyNotString;
      const keyFrom = i + 1;
      const guess = previous === undefined ? node.firstGuess : previous.nextGuess;
      const guessed = guess !== undefined ? this.keyAt(keyFrom, guess.plainKeyBytes as Uint8Array) : -1;
      let child: PathNode | undefined;
      let key: string | undefined;
      let keyTo: number;
      let wide = false;
      if (guessed >= 0) {
        child = guess;
        keyTo = guessed;
        i = guessed + 1;
      } else {
        i = this.string(i);
        if (i < 0) return i;
        keyTo = i - 1;
        wide = this.wide;
        key = this.escaped ? this.text(keyFrom, keyTo, true, wide) : undefined;
        child = key === undefined ? childByBytes(node, this.bytes, keyFrom, keyTo) : childByKey(node, key);
        // A guess is never the hit's own `_id` or `_index`: those are not read as a column's member.
        if (atTop && isIdentityKey(this, keyFrom, keyTo, key)) child = IDENTITY;
      }
      i = this.space(i);
      if (this.at(i) !== COLON) return JSON_FAILURE.noColon;
      i = this.space(i + 1);
      if (child === IDENTITY) {
        i = this.value(i, depth); // the hit's own `_id` and `_index` replace these
      } else if (child === undefined) {
        if (report) this.unknown.push(node.prefix + (key ?? this.text(keyFrom, keyTo, false, wide)));
        i = this.value(i, depth);
      } else {
        if (child.seenIn === serial) this.forget(child);
        child.seenIn = serial;
        child.unknownFrom = this.unknown.length;
        i = this.readMember(i, child, depth, report);
        child.unknownTo = this.unknown.length;
        if (child.plainKeyBytes !== undefined) {
          if (previous === undefined) node.firstGuess = child;
          else previous.nextGuess = child;
          previous = child;
        }
      }
      if (i < 0) return i;
      i = this.space(i);
      const next = i < this.end ? this.bytes[i] : -1;
      if (next === 0x7d) return i + 1;
      if (next !== 0x2c) return JSON_FAILURE.commaOrBrace;
      i = this.space(i + 1);
    }
  }

  /** A key repeated in one object: JSON.parse keeps the last value, so what the first gave is void. */
  private forget(node: PathNode): void {
    this.values.fill(undefined, node.firstSlot, node.endSlot);
    for (let k = node.unknownFrom; k < node.unknownTo; k++) this.unknown[k] = undefined;
  }

  private readMember(at: number, node: PathNode, depth: number, report: boolean): number {
    const byte = at < this.end ? (this.bytes[at] as number) : -1;
    const isObject = byte === 0x7b;
    if (node.slot < 0) {
      if (isObject) return this.readObject(at, node, depth + 1, report);
      if (report) this.unknown.push(node.path);
      return this.value(at, depth);
    }
    if (isObject || byte === 0x5b) {
      // Rare: a container under a column (a `json` column, or a wrong type the coercer turns to null).
      const end =
        isObject && node.children.length > 0
          ? this.readObject(at, node, depth + 1, false)
          : this.value(at, depth);
      if (end >= 0) this.values[node.slot] = parseJson(this.bytes.utf8Slice(at, end));
      return end;
    }
    return this.readScalar(at, byte, node.slot);
  }
}

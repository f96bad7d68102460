// The column names of an output as a tree of their key paths, matched against a record's key bytes:
// the map the hit columns reader follows through a hit's `_source` without building its objects.
import { Buffer } from "node:buffer";
import type { Column } from "../core/contracts.js";

/**
 * One key of the tree. A column `job.id` is the path `job` → `id` (read where a row is nested) and,
 * at the top, the literal key `job.id` (read first, where a row is flat), each with its own slot.
 */
export interface PathNode {
  /** The key as text, and as UTF-8 bytes (undefined when it is not well-formed text: matched as text only). */
  readonly key: string;
  readonly keyBytes: Uint8Array | undefined;
  /** Where a value of this path is kept while a hit is read; -1 when no column ends here. */
  slot: number;
  /** The slots of this node and all below it, `[firstSlot, endSlot)`: forgotten together when a key repeats. */
  firstSlot: number;
  endSlot: number;
  readonly children: PathNode[];
  /** Children by the byte length of their key. */
  readonly byLength: (PathNode[] | undefined)[];
  /** The dotted name of this node (`atr.domain_name`), as unknown fields are named. */
  readonly path: string;
  /** The dotted name with a dot after it, the prefix of its children's names; "" at the top. */
  readonly prefix: string;
  /**
   * The key bytes as they stand between quotes when nothing in them needs an escape: what a guess is
   * matched against (undefined: never guessed).
   */
  readonly plainKeyBytes: Uint8Array | undefined;
  /** The child read first in this object last time, and the key read after this one last time. */
  firstGuess: PathNode | undefined;
  nextGuess: PathNode | undefined;
  /** The object this key was last read in, and the unknown fields found under it then. */
  seenIn: number;
  unknownFrom: number;
  unknownTo: number;
}

/** A lone surrogate, which UTF-8 cannot encode (Buffer.from would write U+FFFD in its place). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether JSON writes `key` only with escapes: it holds a quote, a backslash or a control character. */
function needsEscape(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return true;
  }
  return false;
}

function pathNode(key: string, path: string): PathNode {
  const keyBytes = LONE_SURROGATE.test(key) ? undefined : Buffer.from(key, "utf8");
  return {
    key,
    keyBytes,
    plainKeyBytes: needsEscape(key) ? undefined : keyBytes,
    firstGuess: undefined,
    nextGuess: undefined,
    slot: -1,
    firstSlot: 0,
    endSlot: 0,
    children: [],
    byLength: [],
    path,
    prefix: path === "" ? "" : `${path}.`,
    seenIn: -1,
    unknownFrom: 0,
    unknownTo: 0,
  };
}

function childOf(node: PathNode, key: string): PathNode {
  let child = node.children.find((candidate) => candidate.key === key);
  if (child === undefined) {
    child = pathNode(key, node.prefix + key);
    node.children.push(child);
    // A key that is not well-formed text can only come escaped, and is matched as text then.
    if (child.keyBytes !== undefined) (node.byLength[child.keyBytes.length] ??= []).push(child);
  }
  return child;
}

/** The tree of `columns`, and per column the slots of its nested path and (when dotted) its flat key. */
export interface ColumnPaths {
  root: PathNode;
  slotCount: number;
  nestedSlot: Int32Array;
  /** -1 for a name without a dot, whose flat key is its nested path. */
  flatSlot: Int32Array;
}

/** Numbers the slots depth first, so that the slots under a node are one range. */
function numberSlots(node: PathNode, next: number, ends: ReadonlySet<PathNode>): number {
  node.firstSlot = next;
  let slot = next;
  if (ends.has(node)) node.slot = slot++;
  for (const child of node.children) slot = numberSlots(child, slot, ends);
  node.endSlot = slot;
  return slot;
}

export function columnPaths(columns: readonly Column[]): ColumnPaths {
  const root = pathNode("", "");
  const nested: PathNode[] = [];
  const flat: (PathNode | undefined)[] = [];
  for (const column of columns) {
    let node = root;
    for (const part of column.name.split(".")) node = childOf(node, part);
    nested.push(node);
    // A dotted name is also a literal key at the top; its node has no children (no path goes through it).
    flat.push(column.name.includes(".") ? childOf(root, column.name) : undefined);
  }
  const ends = new Set<PathNode>([...nested, ...flat.filter((node) => node !== undefined)]);
  const slotCount = numberSlots(root, 0, ends);
  return {
    root,
    slotCount,
    nestedSlot: Int32Array.from(nested, (node) => node.slot),
    flatSlot: Int32Array.from(flat, (node) => node?.slot ?? -1),
  };
}

/** The child of `node` whose key has the UTF-8 bytes `bytes[from, to)` (a key without escapes). */
export function childByBytes(
  node: PathNode,
  bytes: Uint8Array,
  from: number,
  to: number,
): PathNode | undefined {
  const candidates = node.byLength[to - from];
  if (candidates === undefined) return undefined;
  for (let c = 0; c < candidates.length; c++) {
    const child = candidates[c] as PathNode;
    const key = child.keyBytes as Uint8Array;
    let k = 0;
    while (k < key.length && key[k] === bytes[from + k]) k++;
    if (k === key.length) return child;
  }
  return undefined;
}

/** The child of `node` whose key is `key` (a key written with escapes, decoded). */
export function childByKey(node: PathNode, key: string): PathNode | undefined {
  return node.children.find((child) => child.key === key);
}

/**
 * Per slot, 1 when only timestamp columns read it: its text can be read to milliseconds at once,
 * which a string column of the same name (a name the mappings list with two types) could not take.
 */
export function timestampOnlySlots(columns: readonly Column[], paths: ColumnPaths): Uint8Array {
  const readers = new Uint8Array(paths.slotCount);
  columns.forEach((column, c) => {
    for (const slot of [paths.nestedSlot[c] as number, paths.flatSlot[c] as number])
      if (slot >= 0) readers[slot] = (readers[slot] as number) | (column.type === "timestamp" ? 1 : 2);
  });
  return readers.map((kinds) => (kinds === 1 ? 1 : 0));
}

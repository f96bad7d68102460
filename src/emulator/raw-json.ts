// JSON text the service may send but JSON.stringify never writes: numbers past 2^53 as their exact
// digits, strings spelled with escapes (lone surrogates as `\ud800`), and keys repeated in one object
// (whose meaning, as JSON.parse reads it, is the last). The awkward data (awkward-data.ts) carries
// these as values and decoys; `jsonText` writes them, and only runs while that data is served.

/** A value written as the given JSON text; `value` is what the text means (a bigint for an exact integer). */
export class RawJson {
  constructor(
    readonly text: string,
    readonly value: unknown,
  ) {}

  /** Plain JSON.stringify (a path that does not know awkward data) writes the meaning, digits as text. */
  toJSON(): unknown {
    return typeof this.value === "bigint" ? this.value.toString() : this.value;
  }
}

/** Members written before an object's own ones, so the object's own value stays the meaning. */
const DECOYS = Symbol("decoys");

export interface Decoy {
  /** The key as JSON text, quotes included: `"_source"`, or an escaped spelling `"_sourc\u0065"`. */
  key: string;
  /** The value as JSON text. */
  text: string;
}

type WithDecoys = { [DECOYS]?: readonly Decoy[] };

/** Sets the decoys of an object (a symbol property: Object.entries and JSON.stringify do not see it). */
export function setDecoys(target: object, decoys: readonly Decoy[]): void {
  Object.defineProperty(target, DECOYS, { value: decoys, enumerable: false, configurable: true });
}

/** JSON text of a value as JSON.stringify writes it, with raw values and decoys written as they are. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((item: unknown) => (item === undefined ? "null" : jsonText(item))).join(",")}]`;
  const withJson = value as { toJSON?: unknown };
  if (typeof withJson.toJSON === "function") return jsonText((withJson.toJSON as () => unknown).call(value));
  const parts: string[] = [];
  for (const decoy of (value as WithDecoys)[DECOYS] ?? []) parts.push(`${decoy.key}:${decoy.text}`);
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined || typeof inner === "function") continue;
    parts.push(`${JSON.stringify(key)}:${jsonText(inner)}`);
  }
  return `{${parts.join(",")}}`;
}

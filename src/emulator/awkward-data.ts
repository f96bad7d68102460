// Awkward data on request: values the spec allows that plain JSON.stringify of ordinary records never
// shows. Each part of the profile adds fields (under `odd.`) or decoys to every record, with values
// drawn from the record's id, so every read of a record agrees. Off by default: the default data,
// which other tests and the demo depend on, is unchanged.
import { AWKWARD_PARTS as PARTS } from "../core/awkward-parts.js";
import type { GeneratedKind } from "./generated-kind.js";
import type { MappingField } from "../core/columns-from-mappings.js";
import { isJsonObject } from "../core/json-object.js";
import { createRandom, hashString, pick } from "./random.js";
import type { Random } from "./random.js";
import { RawJson, setDecoys } from "./raw-json.js";
import type { Decoy } from "./raw-json.js";
import type { Source } from "./records.js";

/** Which awkward values the records carry (docs/emulator.md, "Awkward data"). */
export interface AwkwardData {
  /** `odd.count` (long) at int64's extremes and past 2^53, as exact digits; `odd.small` (integer) at int32's. */
  int64?: boolean;
  /** `odd.text` (keyword): escapes, astral characters, lone surrogates (`\ud800`), NUL, empty text. */
  unicode?: boolean;
  /** `odd.deep.a.b.c.d.e.f` (keyword) or an empty object or null on its way; `odd.empty: {}`; `odd.blank: ""`. */
  nesting?: boolean;
  /** `odd.when` (date): the record's instant written with a zone offset (`-05:00`, `+05:45`), `Z`, or no zone at all (UTC, to the second). */
  dates?: boolean;
  /** `_source` repeats `@timestamp` (plainly or spelled with an escape); the last one is the record's. */
  repeatedKeys?: boolean;
  /** The hit repeats `_source`, `_id` or `_index` (plainly or escaped) before its own member. */
  hitKeys?: boolean;
  /** Logs and metrics: `odd.code` long on ec2 and keyword elsewhere, `odd.size` integer on ec2 and long elsewhere; logs on kubernetes map `timestamp` as alias. */
  conflicts?: boolean;
}

export type AwkwardProfile = Readonly<Required<AwkwardData>>;

/** The parts, each a field of the profile (core/ keeps the list, which config/ validates against). */
export const AWKWARD_PARTS = PARTS satisfies readonly (keyof AwkwardData)[];

export const PLAIN_DATA: AwkwardProfile = Object.fromEntries(
  AWKWARD_PARTS.map((part) => [part, false]),
) as Required<AwkwardData>;

/** `true` turns every part on; an object turns on the parts it names. */
export function resolveAwkward(option: boolean | AwkwardData | undefined): AwkwardProfile {
  if (option === undefined || option === false) return PLAIN_DATA;
  if (option === true)
    return Object.fromEntries(AWKWARD_PARTS.map((part) => [part, true])) as Required<AwkwardData>;
  return { ...PLAIN_DATA, ...option };
}

/** The command's `--awkward` value: `all`, or parts separated by commas (`int64,unicode`). */
export function parseAwkward(text: string): AwkwardProfile | string {
  if (text.trim() === "all") return resolveAwkward(true);
  const parts = text.split(",").map((part) => part.trim());
  const unknown = parts.filter((part) => !(AWKWARD_PARTS as readonly string[]).includes(part));
  if (unknown.length > 0)
    return `--awkward: ${unknown.map((part) => JSON.stringify(part)).join(", ")} is not one of all, ${AWKWARD_PARTS.join(", ")}`;
  return resolveAwkward(Object.fromEntries(parts.map((part) => [part, true])));
}

export function isAwkward(profile: AwkwardProfile): boolean {
  return AWKWARD_PARTS.some((part) => profile[part]);
}

/** Kinds whose mappings are asked per app type, where two app types can map one field two ways. */
const MAPPED_PER_APP_TYPE: ReadonlySet<GeneratedKind> = new Set(["logs", "metrics"]);

/** The mappings with the awkward fields added (and, for conflicts, `timestamp` as alias on kubernetes logs). */
export function withAwkwardMappings(
  fields: readonly MappingField[],
  kind: GeneratedKind,
  appType: string | undefined,
  profile: AwkwardProfile,
): MappingField[] {
  const conflicts = profile.conflicts && MAPPED_PER_APP_TYPE.has(kind);
  const out = fields.map((field) =>
    conflicts && kind === "logs" && appType === "kubernetes" && field.name === "timestamp"
      ? { name: field.name, type: "alias" }
      : field,
  );
  const add = (name: string, type: string) => out.push({ name, type });
  if (profile.int64) {
    add("odd.count", "long");
    add("odd.small", "integer");
  }
  if (profile.unicode) add("odd.text", "keyword");
  if (profile.nesting) {
    add("odd.deep.a.b.c.d.e.f", "keyword");
    add("odd.blank", "keyword");
  }
  if (profile.dates) add("odd.when", "date");
  if (conflicts) {
    add("odd.code", appType === "ec2" ? "long" : "keyword");
    add("odd.size", appType === "ec2" ? "integer" : "long");
  }
  return out;
}

const INT64_TEXTS = [
  "0",
  "-1",
  "9007199254740993",
  "-9007199254740993",
  "9007199254740992",
  "9223372036854775807",
  "-9223372036854775808",
  "123456789012345678",
];
const INT32_VALUES = [2_147_483_647, -2_147_483_648, 0, -1, 7];
/** JSON string texts; each means what JSON.parse makes of it (lone surrogates kept as they are). */
const STRING_TEXTS = [
  String.raw`"caf\u00e9"`,
  String.raw`"\ud83d\ude80 rocket"`,
  String.raw`"lone \ud800 high"`,
  String.raw`"\udfff"`,
  String.raw`"high \ud83d then text"`,
  `""`,
  `"raw astral 𝄞 and ü"`,
  String.raw`"quote \" back \\ solidus \/ tab \t"`,
  String.raw`"nul \u0000 inside"`,
];
/** Minutes east of UTC, or "none": a date-time without a zone, which the service means as UTC. */
const OFFSETS_MINUTES = [0, -300, 330, 345, -570, 60, "none", "none"] as const;
const DECOY_TIME = `"2001-02-03T04:05:06.000Z"`;

/** Text and meaning of one value, or null: the meaning of a string text is JSON.parse's. */
function rawString(random: Random): RawJson | null {
  if (random() < 0.1) return null;
  const text = pick(random, STRING_TEXTS);
  return new RawJson(text, JSON.parse(text) as string);
}

function rawLong(random: Random): RawJson | null {
  if (random() < 0.1) return null;
  const text = pick(random, INT64_TEXTS);
  return new RawJson(text, BigInt(text));
}

/**
 * The instant `ts` written as local time at an offset: `2026-03-12T05:30:00.000-05:00`; with "none",
 * its UTC time to the second and no zone, `2026-03-12T10:30:00`, which a reader in another zone must
 * still read as UTC.
 */
function timeWithOffset(ts: number, minutes: number | "none"): string {
  if (minutes === "none") return new Date(ts).toISOString().slice(0, 19);
  if (minutes === 0) return new Date(ts).toISOString();
  const local = new Date(ts + minutes * 60_000).toISOString().slice(0, 23);
  const sign = minutes < 0 ? "-" : "+";
  const size = Math.abs(minutes);
  const hours = String(Math.floor(size / 60)).padStart(2, "0");
  return `${local}${sign}${hours}:${String(size % 60).padStart(2, "0")}`;
}

function objectAt(source: Source, key: string): Source {
  const existing = source[key];
  if (isJsonObject(existing)) return existing;
  const created: Source = {};
  source[key] = created;
  return created;
}

function deepValue(random: Random, n: number): unknown {
  const roll = random();
  if (roll < 0.15) return {};
  if (roll < 0.25) return null;
  if (roll < 0.35) return { a: {} };
  return { a: { b: { c: { d: { e: { f: `deep-${n}` } } } } } };
}

/** Adds the profile's fields and decoys to one generated `_source` (in place; it was built for this read). */
export function addAwkwardFields(
  source: Source,
  kind: GeneratedKind,
  appType: string,
  id: string,
  ts: number,
  profile: AwkwardProfile,
): void {
  const random = createRandom(hashString(0xa3c0, id));
  const n = Math.floor(random() * 1000);
  if (profile.int64) {
    const odd = objectAt(source, "odd");
    odd["count"] = rawLong(random);
    odd["small"] = random() < 0.1 ? null : pick(random, INT32_VALUES);
  }
  if (profile.unicode) objectAt(source, "odd")["text"] = rawString(random);
  if (profile.nesting) {
    const odd = objectAt(source, "odd");
    odd["deep"] = deepValue(random, n);
    odd["empty"] = {};
    odd["blank"] = "";
  }
  if (profile.dates)
    objectAt(source, "odd")["when"] =
      random() < 0.1 ? null : timeWithOffset(ts, pick(random, OFFSETS_MINUTES));
  if (profile.conflicts && MAPPED_PER_APP_TYPE.has(kind)) {
    const odd = objectAt(source, "odd");
    odd["code"] = appType === "ec2" ? n : `E-${n}`;
    odd["size"] = n * 1000;
  }
  if (profile.repeatedKeys && random() < 0.5) {
    const key = random() < 0.5 ? `"@timestamp"` : String.raw`"@timest\u0061mp"`;
    setDecoys(source, [{ key, text: DECOY_TIME }]);
  }
}

const HIT_DECOYS: readonly Decoy[] = [
  { key: `"_source"`, text: `{"decoy":true}` },
  { key: String.raw`"_sourc\u0065"`, text: `{"@timestamp":${DECOY_TIME}}` },
  { key: `"_id"`, text: `"decoy-id"` },
  { key: String.raw`"_\u0069ndex"`, text: `"decoy-index"` },
];

/** Puts a repeated member before the hit's own (about every other hit), when the profile asks. */
export function addHitDecoys(hit: object, id: string, profile: AwkwardProfile): void {
  if (!profile.hitKeys) return;
  const random = createRandom(hashString(0x417, id));
  if (random() < 0.5) setDecoys(hit, [pick(random, HIT_DECOYS)]);
}

// The emulator command's flags that change the data it serves: fields added, removed or retyped per
// kind, records ingested late or lost, and how far the service has indexed. Each names the flag, the
// value and what is allowed when wrong; the kinds a flag takes are those the emulator's table of kind
// data says the change applies to; and the awkward values the records carry.
import type { MappingType } from "../../api/wire/fields.js";
import { parseAwkward } from "../../emulator/awkward-data.js";
import type { AwkwardProfile } from "../../emulator/awkward-data.js";
import type { FieldChanges } from "../../emulator/field-changes.js";
import type { GeneratedKind } from "../../emulator/generated-kind.js";
import { kindsTaking } from "../../emulator/kind-data.js";
import type { DataChange } from "../../emulator/kind-data.js";
import { resolveLateRecords } from "../../emulator/late-records.js";
import type { LateRecords } from "../../emulator/late-records.js";
import type { EmulatorOptions } from "../../emulator/options.js";

/** The change each flag makes. */
const CHANGE_OF_FLAG = {
  "add-field": "fields",
  "remove-field": "fields",
  "retype-field": "fields",
  "late-records": "late-records",
  "lost-records": "lost-records",
} as const satisfies Record<string, DataChange>;

type DataFlag = keyof typeof CHANGE_OF_FLAG;
const TYPES: readonly MappingType[] = [
  "keyword",
  "text",
  "date",
  "float",
  "boolean",
  "long",
  "integer",
  "alias",
];

interface DataChangeFlags {
  addField?: readonly string[] | undefined;
  removeField?: readonly string[] | undefined;
  retypeField?: readonly string[] | undefined;
  lateRecords?: readonly string[] | undefined;
  lostRecords?: readonly string[] | undefined;
  indexedUntil?: string | undefined;
}

function kindOf(flag: DataFlag, value: string, kind: string | undefined): GeneratedKind {
  const kinds = kindsTaking(CHANGE_OF_FLAG[flag]);
  const found = kinds.find((candidate) => candidate === kind);
  if (found !== undefined) return found;
  throw new Error(`--${flag}: "${value}" does not start with a kind (${kinds.join(", ")})`);
}

function typeOf(flag: string, value: string, type: string | undefined): MappingType {
  if (TYPES.includes(type as MappingType)) return type as MappingType;
  throw new Error(`--${flag}: "${value}" does not end with a type (${TYPES.join(", ")})`);
}

/** `jobs:job.priority:keyword` → kind, field, type. Field names hold no `:`. */
function fieldFlag(
  flag: DataFlag,
  value: string,
  withType: boolean,
): { kind: GeneratedKind; name: string; type?: MappingType } {
  const parts = value.split(":");
  const [kind, name, type] = parts;
  if (parts.length !== (withType ? 3 : 2) || name === undefined || name === "")
    throw new Error(`--${flag}: "${value}" is not ${withType ? "KIND:FIELD:TYPE" : "KIND:FIELD"}`);
  return withType
    ? { kind: kindOf(flag, value, kind), name, type: typeOf(flag, value, type) }
    : { kind: kindOf(flag, value, kind), name };
}

/** `jobs:2026-11-20T10:00:00Z/2026-11-20T11:00:00Z:25`: the times hold `:`, so kind and count are split off the ends. */
function lateFlag(value: string, flag: DataFlag = "late-records"): LateRecords {
  const first = value.indexOf(":");
  const last = value.lastIndexOf(":");
  const range = value.slice(first + 1, last).split("/");
  const count = Number(value.slice(last + 1));
  if (first < 0 || last === first || range.length !== 2)
    throw new Error(`--${flag}: "${value}" is not KIND:START/END:COUNT`);
  const late = {
    kind: kindOf(flag, value, value.slice(0, first)),
    start: range[0] ?? "",
    end: range[1] ?? "",
    count,
  };
  try {
    resolveLateRecords(late);
  } catch (error) {
    throw new Error(`--${flag}: "${value}": ${(error as Error).message}`, { cause: error });
  }
  return late;
}

/** The options the flags ask for; none when no flag is given. */
export function parseDataChanges(
  flags: DataChangeFlags,
): Pick<EmulatorOptions, "fieldChanges" | "lateRecords" | "lostRecords" | "indexedUntil"> {
  const changes: Partial<
    Record<
      GeneratedKind,
      { add: Record<string, MappingType>; remove: string[]; retype: Record<string, MappingType> }
    >
  > = {};
  const of = (kind: GeneratedKind) => (changes[kind] ??= { add: {}, remove: [], retype: {} });
  for (const value of flags.addField ?? []) {
    const { kind, name, type } = fieldFlag("add-field", value, true);
    of(kind).add[name] = type as MappingType;
  }
  for (const value of flags.removeField ?? []) {
    const { kind, name } = fieldFlag("remove-field", value, false);
    of(kind).remove.push(name);
  }
  for (const value of flags.retypeField ?? []) {
    const { kind, name, type } = fieldFlag("retype-field", value, true);
    of(kind).retype[name] = type as MappingType;
  }
  const fieldChanges: Partial<Record<GeneratedKind, FieldChanges>> = changes;
  const lateRecords = (flags.lateRecords ?? []).map((value) => lateFlag(value));
  const lostRecords = (flags.lostRecords ?? []).map((value) => lateFlag(value, "lost-records"));
  const until = flags.indexedUntil;
  if (until !== undefined && !Number.isFinite(Date.parse(until)))
    throw new Error(`--indexed-until: "${until}" is not a time (ISO 8601, such as 2026-11-20T10:43:57Z)`);
  return {
    ...(Object.keys(fieldChanges).length > 0 ? { fieldChanges } : {}),
    ...(lateRecords.length > 0 ? { lateRecords } : {}),
    ...(lostRecords.length > 0 ? { lostRecords } : {}),
    ...(until === undefined ? {} : { indexedUntil: until }),
  };
}

/** `--awkward=int64,dates` (or `all`): the awkward parts; throws naming the parts that are not ones. */
export function parseAwkwardFlag(value: string): AwkwardProfile {
  const profile = parseAwkward(value);
  if (typeof profile === "string") throw new Error(profile);
  return profile;
}

// The emulator command's flags that change the data it serves: fields added, removed or retyped per
// kind, records ingested late or lost, how far the service has indexed, and the awkward values the
// records carry. Each names the flag, the value and what is allowed when wrong; the kinds a flag takes
// are the emulator's generated kinds, the types those its control interface takes.
import type { MappingType } from "../../api/wire/fields.js";
import { parseAwkward } from "../../emulator/awkward-data.js";
import { MAPPING_TYPES } from "../../api/wire/fields.js";
import type { FieldChanges } from "../../emulator/field-changes.js";
import type { GeneratedKind } from "../../emulator/generated-kind.js";
import { GENERATED_KINDS } from "../../emulator/kind-data.js";
import { resolveLateRecords } from "../../emulator/late-records.js";
import type { LateRecords } from "../../emulator/late-records.js";
import type { EmulatorOptions } from "../../emulator/options.js";

/** The flags as `parseArgs` declares them; the field and record flags repeat. */
export const DATA_FLAGS = {
  "add-field": { type: "string", multiple: true },
  "remove-field": { type: "string", multiple: true },
  "retype-field": { type: "string", multiple: true },
  "late-records": { type: "string", multiple: true },
  "lost-records": { type: "string", multiple: true },
  "indexed-until": { type: "string" },
  awkward: { type: "string" },
} as const;

type DataFlagValues = {
  [F in keyof typeof DATA_FLAGS]?: (typeof DATA_FLAGS)[F] extends { multiple: true }
    ? readonly string[]
    : string;
};

function kindOf(flag: string, value: string, kind: string | undefined): GeneratedKind {
  const found = GENERATED_KINDS.find((candidate) => candidate === kind);
  if (found !== undefined) return found;
  throw new Error(`--${flag}: "${value}" does not start with a kind (${GENERATED_KINDS.join(", ")})`);
}

/** `jobs:job.priority:keyword` → kind, field, type. Field names hold no `:`. */
function fieldFlag(
  flag: "add-field" | "remove-field" | "retype-field",
  value: string,
): { kind: GeneratedKind; name: string; type: MappingType } {
  const withType = flag !== "remove-field";
  const parts = value.split(":");
  const [kind, name, type] = parts;
  if (parts.length !== (withType ? 3 : 2) || name === undefined || name === "")
    throw new Error(`--${flag}: "${value}" is not ${withType ? "KIND:FIELD:TYPE" : "KIND:FIELD"}`);
  const found = kindOf(flag, value, kind);
  if (withType && !(MAPPING_TYPES as readonly (string | undefined)[]).includes(type))
    throw new Error(`--${flag}: "${value}" does not end with a type (${MAPPING_TYPES.join(", ")})`);
  return { kind: found, name, type: type as MappingType };
}

/** `jobs:2026-11-20T10:00:00Z/2026-11-20T11:00:00Z:25`: the times hold `:`, so kind and count are split off the ends. */
function lateFlag(value: string, flag: "late-records" | "lost-records"): LateRecords {
  const first = value.indexOf(":");
  const last = value.lastIndexOf(":");
  const range = value.slice(first + 1, last).split("/");
  if (first < 0 || last === first || range.length !== 2)
    throw new Error(`--${flag}: "${value}" is not KIND:START/END:COUNT`);
  const kind = kindOf(flag, value, value.slice(0, first));
  const late = { kind, start: range[0] ?? "", end: range[1] ?? "", count: Number(value.slice(last + 1)) };
  try {
    resolveLateRecords(late);
  } catch (error) {
    throw new Error(`--${flag}: "${value}": ${(error as Error).message}`, { cause: error });
  }
  return late;
}

type DataOptions = Pick<
  EmulatorOptions,
  "fieldChanges" | "lateRecords" | "lostRecords" | "indexedUntil" | "awkward"
>;

/** The options the flags ask for; none when no flag is given. */
export function parseDataChanges(flags: DataFlagValues): DataOptions {
  const changes: Partial<
    Record<
      GeneratedKind,
      { add: Record<string, MappingType>; remove: string[]; retype: Record<string, MappingType> }
    >
  > = {};
  const of = (kind: GeneratedKind) => (changes[kind] ??= { add: {}, remove: [], retype: {} });
  for (const flag of ["add-field", "remove-field", "retype-field"] as const)
    for (const value of flags[flag] ?? []) {
      const { kind, name, type } = fieldFlag(flag, value);
      const change = of(kind);
      if (flag === "remove-field") change.remove.push(name);
      else change[flag === "add-field" ? "add" : "retype"][name] = type;
    }
  const fieldChanges: Partial<Record<GeneratedKind, FieldChanges>> = changes;
  const lateRecords = (flags["late-records"] ?? []).map((value) => lateFlag(value, "late-records"));
  const lostRecords = (flags["lost-records"] ?? []).map((value) => lateFlag(value, "lost-records"));
  const until = flags["indexed-until"];
  if (until !== undefined && !Number.isFinite(Date.parse(until)))
    throw new Error(`--indexed-until: "${until}" is not a time (ISO 8601, such as 2026-11-20T10:43:57Z)`);
  const awkward = flags.awkward === undefined ? undefined : parseAwkward(flags.awkward);
  if (typeof awkward === "string") throw new Error(awkward);
  return {
    ...(Object.keys(fieldChanges).length > 0 ? { fieldChanges } : {}),
    ...(lateRecords.length > 0 ? { lateRecords } : {}),
    ...(lostRecords.length > 0 ? { lostRecords } : {}),
    ...(until === undefined ? {} : { indexedUntil: until }),
    ...(awkward === undefined ? {} : { awkward }),
  };
}

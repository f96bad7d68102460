// Changing what the service holds while it runs: its fields (a service upgrade), late and lost
// records, and how far it has indexed.
// Tests call these directly; the standalone emulator exposes them over HTTP under /_emulator/ when
// started with --control, so a pipeline can be tried against a service that changes between runs.
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { MAPPING_TYPES } from "../api/wire/fields.js";
import type { FieldChanges } from "./field-changes.js";
import { readBody, sendJson } from "./http-io.js";
import { lateRecordsSchema, resolveIndexedUntil, resolveLateRecords } from "./late-records.js";
import type { LateRecords } from "./late-records.js";
import type { GeneratedKind } from "./generated-kind.js";
import type { ResolvedOptions } from "./options.js";

export interface EmulatorControl {
  /** Replaces the field changes of a kind (an empty object restores its own fields). */
  changeFields(kind: GeneratedKind, changes: FieldChanges): void;
  /** Adds records to the hours a range touches, from now on. */
  addLateRecords(late: LateRecords): void;
  /** Takes records from the hours a range touches (retention, a missing shard), from now on. */
  loseRecords(lost: LateRecords): void;
  /** Records at or after `until` are not searchable yet; undefined makes every record searchable. */
  setIndexedUntil(until: string | number | undefined): void;
}

export const CONTROL_PREFIX = "/_emulator/";

const typeSchema = z.enum(MAPPING_TYPES);

const fieldsBody = z.strictObject({
  kind: lateRecordsSchema.shape.kind,
  add: z.record(z.string().min(1), typeSchema).optional(),
  remove: z.array(z.string().min(1)).optional(),
  retype: z.record(z.string().min(1), typeSchema).optional(),
  mappings: z.array(z.strictObject({ name: z.string(), type: z.string() })).optional(),
});

export function createControl(options: ResolvedOptions): EmulatorControl {
  return {
    changeFields(kind, changes) {
      options.fieldChanges = { ...options.fieldChanges, [kind]: changes };
    },
    addLateRecords(late) {
      options.lateRecords = [...options.lateRecords, resolveLateRecords(late)];
    },
    loseRecords(lost) {
      options.lostRecords = [...options.lostRecords, resolveLateRecords(lost)];
    },
    setIndexedUntil(until) {
      options.indexedUntil = resolveIndexedUntil(until);
    },
  };
}

const indexedBody = z.strictObject({ until: z.union([z.string(), z.number(), z.null()]) });

/** Each action's body and what it changes. */
const ACTIONS: Record<string, (control: EmulatorControl, body: unknown) => z.ZodError | undefined> = {
  fields: (control, body) =>
    apply(fieldsBody, body, ({ kind, ...changes }) => control.changeFields(kind, changes)),
  "late-records": (control, body) => apply(lateRecordsSchema, body, control.addLateRecords),
  "lost-records": (control, body) => apply(lateRecordsSchema, body, control.loseRecords),
  "indexed-until": (control, body) =>
    apply(indexedBody, body, ({ until }) => control.setIndexedUntil(until ?? undefined)),
};

function apply<T>(schema: z.ZodType<T>, body: unknown, change: (parsed: T) => void): z.ZodError | undefined {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return parsed.error;
  change(parsed.data);
  return undefined;
}

/** `POST /_emulator/` fields, late-records, lost-records, indexed-until; JSON bodies as in docs/emulator.md. */
export async function handleControl(
  control: EmulatorControl,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse((await readBody(req)) ?? "");
  } catch {
    return sendJson(res, 400, { error: "bad_request", details: "the body is not JSON" });
  }
  const name = pathname.slice(CONTROL_PREFIX.length);
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (action === undefined)
    return sendJson(res, 404, {
      error: "not_found",
      details: `no control ${pathname}; fields, late-records, lost-records or indexed-until`,
    });
  try {
    const invalid = action(control, body);
    const issue = invalid?.issues[0];
    if (invalid !== undefined)
      return sendJson(res, 400, {
        error: "bad_request",
        details: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? ""}`,
      });
  } catch (error) {
    return sendJson(res, 400, { error: "bad_request", details: (error as Error).message });
  }
  return sendJson(res, 200, { ok: true });
}

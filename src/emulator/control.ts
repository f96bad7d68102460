// Changing what the service holds while it runs: its fields (a service upgrade), late and lost
// records, and how far it has indexed.
// Tests call these directly; the standalone emulator exposes them over HTTP under /_emulator/ when
// started with --control, so a pipeline can be tried against a service that changes between runs.
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { FieldChanges } from "./field-changes.js";
import { readBody, sendJson } from "./http-io.js";
import { resolveIndexedUntil, resolveLateRecords } from "./late-records.js";
import type { LateRecords } from "./late-records.js";
import type { GeneratedKind } from "./generated-kind.js";
import { kindsTaking } from "./kind-data.js";
import type { DataChange } from "./kind-data.js";
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

/** The kinds a change applies to, as the table says. */
const kindSchema = (change: DataChange) => z.enum(kindsTaking(change));
const typeSchema = z.enum(["keyword", "text", "date", "float", "boolean", "long", "integer", "alias"]);

const fieldsBody = z.strictObject({
  kind: kindSchema("fields"),
  add: z.record(z.string().min(1), typeSchema).optional(),
  remove: z.array(z.string().min(1)).optional(),
  retype: z.record(z.string().min(1), typeSchema).optional(),
  mappings: z.array(z.strictObject({ name: z.string(), type: z.string() })).optional(),
});

const rangeBody = (change: DataChange) =>
  z.strictObject({
    kind: kindSchema(change),
    start: z.union([z.string(), z.number()]),
    end: z.union([z.string(), z.number()]),
    count: z.number().int().min(1),
  });
const lateBody = rangeBody("late-records");
const lostBody = rangeBody("lost-records");

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
  const action = pathname.slice(CONTROL_PREFIX.length);
  const invalid = (error: z.ZodError): void => {
    const issue = error.issues[0];
    sendJson(res, 400, {
      error: "bad_request",
      details: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? ""}`,
    });
  };
  try {
    if (action === "fields") {
      const parsed = fieldsBody.safeParse(body);
      if (!parsed.success) return invalid(parsed.error);
      const { kind, ...changes } = parsed.data;
      control.changeFields(kind, changes);
    } else if (action === "late-records") {
      const parsed = lateBody.safeParse(body);
      if (!parsed.success) return invalid(parsed.error);
      control.addLateRecords(parsed.data);
    } else if (action === "lost-records") {
      const parsed = lostBody.safeParse(body);
      if (!parsed.success) return invalid(parsed.error);
      control.loseRecords(parsed.data);
    } else if (action === "indexed-until") {
      const parsed = indexedBody.safeParse(body);
      if (!parsed.success) return invalid(parsed.error);
      control.setIndexedUntil(parsed.data.until ?? undefined);
    } else {
      return sendJson(res, 404, {
        error: "not_found",
        details: `no control ${pathname}; fields, late-records, lost-records or indexed-until`,
      });
    }
  } catch (error) {
    return sendJson(res, 400, { error: "bad_request", details: (error as Error).message });
  }
  return sendJson(res, 200, { ok: true });
}

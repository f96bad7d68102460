// `redact`: replaces field values by a keyed hash (joinable, not reversible) or by a mask.
import { createHash, createHmac } from "node:crypto";
import { z } from "zod";
import type { Column, TransformComponent } from "../core/contracts.js";
import { isUnder, missingFields } from "./columns.js";
import { fieldListSchema } from "./field-schema.js";
import { readField, writeField } from "./field-path.js";
import { mapRows } from "./map-rows.js";
import { wholeNumber } from "../core/whole-number.js";

export const redactSchema = z
  .strictObject({
    fields: fieldListSchema.describe("Fields whose values are replaced. Required."),
    method: z
      .enum(["hash", "mask"])
      .default("hash")
      .describe(
        "hash: hex SHA-256 (HMAC-SHA256 with salt), equal values stay equal; mask: mask_char repeated.",
      ),
    salt: z
      .string()
      .min(16)
      .optional()
      .describe(
        "Key of the HMAC for method hash; only through ${ENV} interpolation, at least 16 characters.",
      ),
    keep_length: z
      .boolean()
      .default(true)
      .describe("Mask: as many mask characters as the value had; false writes eight."),
    keep_last: wholeNumber(0)
      .max(8)
      .default(0)
      .describe("Mask: leave this many trailing characters visible. Default 0."),
    mask_char: z.string().length(1).default("*").describe('Mask: the character written. Default "*".'),
  })
  .superRefine((config, ctx) => {
    if (config.method === "mask" && config.salt !== undefined) {
      ctx.addIssue({ code: "custom", path: ["salt"], message: "salt applies to method hash only" });
    }
  })
  .describe("Replaces values by a hash or a mask; null and absent values stay as they are.");

type RedactConfig = z.infer<typeof redactSchema>;

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  // Objects are rare here (redacting a whole subtree); one stringify per such value is acceptable.
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function redactor(config: RedactConfig): (value: unknown) => string {
  if (config.method === "hash") {
    const salt = config.salt;
    return salt === undefined
      ? (value) => createHash("sha256").update(textOf(value)).digest("hex")
      : (value) => createHmac("sha256", salt).update(textOf(value)).digest("hex");
  }
  return (value) => {
    const text = textOf(value);
    const visible = config.keep_last > 0 ? text.slice(-config.keep_last) : "";
    const hidden = config.keep_length ? Math.max(0, text.length - visible.length) : 8;
    return config.mask_char.repeat(hidden) + visible;
  };
}

export const redactTransform: TransformComponent<typeof redactSchema> = {
  type: "redact",
  summary: "Replaces values by a SHA-256 hash or a mask.",
  schema: redactSchema,
  create: (config) => {
    const replace = redactor(config);
    return mapRows((row) => {
      let out = row;
      for (const field of config.fields) {
        const found = readField(out, field);
        if (found.found && found.value !== null && found.value !== undefined) {
          out = writeField(out, field, replace(found.value));
        }
      }
      return out;
    });
  },
  columns: (config, input) => {
    // A redacted subtree becomes one string column under the path's name.
    const columns: Column[] = [];
    const emitted = new Set<string>();
    for (const column of input) {
      const field = config.fields.find((path) => isUnder(column.name, path));
      if (field === undefined) columns.push(column);
      else if (!emitted.has(field)) {
        emitted.add(field);
        columns.push({ name: field, type: "string" });
      }
    }
    return {
      columns,
      problems: missingFields(config.fields, input),
    };
  },
};

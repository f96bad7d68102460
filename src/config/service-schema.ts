// The `service` schema: the real service (addresses and client credentials, secrets through ${ENV}
// only) or the embedded emulator started in-process.
import { z } from "zod";
import { AWKWARD_PARTS } from "../core/awkward-parts.js";
import { wholeNumber } from "../core/whole-number.js";

const timeoutsSchema = z
  .strictObject({
    connect_ms: wholeNumber(100).default(10_000).describe("TCP/TLS connect timeout. Default 10000."),
    request_ms: wholeNumber(1_000)
      .default(60_000)
      .describe(
        "Deadline of one attempt of one request (token and batch status included), from sending until the last byte of the body. Default 60000.",
      ),
    download_ms: wholeNumber(10_000)
      .default(1_800_000)
      .describe("Deadline of one attempt at downloading one batch partition file. Default 1800000."),
    batch_export_ms: wholeNumber(60_000)
      .default(3_600_000)
      .describe("How long a batch export may take to become ready before the slice fails. Default 3600000."),
  })
  .describe("Timeouts of requests to the service.");

const MIB = 1024 * 1024;

const responseLimitsSchema = z
  .strictObject({
    max_response_bytes: wholeNumber(64 * 1024)
      .default(32 * MIB)
      .describe(
        "Largest API response body read (pages, token, batch status): the v3 safe payload limit plus margin. A page over it is asked again smaller, like HTTP 413; any other response fails. Default 33554432 (32 MiB).",
      ),
    max_partition_bytes: wholeNumber(MIB)
      .default(8 * 1024 * MIB)
      .describe(
        "Largest batch partition file as downloaded (before decompression). Default 8589934592 (8 GiB).",
      ),
    max_line_bytes: wholeNumber(64 * 1024)
      .default(16 * MIB)
      .describe(
        "Longest record (one NDJSON line or array element) in a batch partition. Default 16777216 (16 MiB).",
      ),
    max_decompression_ratio: wholeNumber(10)
      .default(100)
      .describe(
        "A gzip partition may decompress to at most this many times the bytes it was sent as (after its first 16 MiB). Default 100.",
      ),
  })
  .describe("Bounds on what is read from the service and its download links.");

const REMOTE_KEYS = ["base_url", "auth_url", "client_id", "client_secret"] as const;

export const serviceSchema = z
  .strictObject({
    embedded: z
      .boolean()
      .optional()
      .describe("true starts the emulator in-process and exports from it (no credentials). Default false."),
    seed: wholeNumber(0).optional().describe("Embedded only: seed of the generated data. Default 1."),
    density: z
      .number()
      .positive()
      .optional()
      .describe("Embedded only: records generated per hour per domain; the emulator's default when omitted."),
    awkward: z
      .union([z.boolean(), z.array(z.enum(AWKWARD_PARTS)).min(1)])
      .optional()
      .describe(
        `Embedded only: records carry awkward values the spec allows (exact int64 digits, lone surrogates, dates with offsets or none, repeated keys, ...): true for every part, or a list of ${AWKWARD_PARTS.join(", ")}. Default false.`,
      ),
    base_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Address of the service. Required unless embedded."),
    auth_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Address of the token issuer. Required unless embedded."),
    client_id: z.string().min(1).optional().describe("OAuth2 client id. Required unless embedded."),
    client_secret: z
      .string()
      .min(1)
      .optional()
      .describe(
        "OAuth2 client secret. Required unless embedded; only as ${ENV_VAR}, never written in the file.",
      ),
    timeouts: timeoutsSchema.prefault({}),
    limits: responseLimitsSchema.prefault({}),
    download_hosts: z
      .array(
        z
          .string()
          .regex(/^(\*\.)?[a-z0-9.-]+$/i, "a host name, or *.domain for every host under it")
          .transform((host) => host.toLowerCase()),
      )
      .min(1)
      .optional()
      .describe(
        "Hosts the presigned batch partition links may name (exact, or *.domain); any https host when omitted. Link-local, metadata and unspecified addresses are refused either way.",
      ),
  })
  .superRefine((service, ctx) => {
    if (service.embedded === true) {
      for (const key of [...REMOTE_KEYS, "download_hosts"] as const) {
        if (service[key] !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `${key} does not apply to the embedded service`,
          });
        }
      }
      return;
    }
    for (const key of ["seed", "density", "awkward"] as const) {
      if (service[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `${key} applies only with embedded: true` });
      }
    }
    const missing = REMOTE_KEYS.filter((key) => service[key] === undefined);
    if (missing.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `needs ${missing.join(", ")} (or embedded: true to use the emulator)`,
      });
    }
  })
  .transform((service) =>
    service.embedded === true
      ? {
          mode: "embedded" as const,
          seed: service.seed ?? 1,
          density: service.density,
          awkward: service.awkward === false ? undefined : service.awkward,
          timeouts: service.timeouts,
          limits: service.limits,
        }
      : {
          mode: "remote" as const,
          base_url: service.base_url ?? "",
          auth_url: service.auth_url ?? "",
          client_id: service.client_id ?? "",
          client_secret: service.client_secret ?? "",
          timeouts: service.timeouts,
          limits: service.limits,
          download_hosts: service.download_hosts,
        },
  )
  .describe(
    "The service to export from: { base_url, auth_url, client_id, client_secret } or { embedded: true }.",
  );

/** The real service (`remote`, its credentials) or the embedded emulator, as the schema resolved it. */
export type ServiceConfig = z.output<typeof serviceSchema>;

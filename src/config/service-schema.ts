// The `service` schema: the real service (addresses and client credentials, secrets through ${ENV}
// only) or the embedded emulator started in-process.
import { z } from "zod";

const timeoutsSchema = z
  .strictObject({
    connect_ms: z.number().int().min(100).default(10_000).describe("TCP/TLS connect timeout. Default 10000."),
    request_ms: z
      .number()
      .int()
      .min(1_000)
      .default(60_000)
      .describe("Whole-request timeout per attempt. Default 60000."),
    batch_export_ms: z
      .number()
      .int()
      .min(60_000)
      .default(3_600_000)
      .describe("How long a batch export may take to become ready before the slice fails. Default 3600000."),
  })
  .describe("Timeouts of requests to the service.");

export type ServiceConfig =
  | {
      mode: "remote";
      base_url: string;
      auth_url: string;
      client_id: string;
      client_secret: string;
      timeouts: z.output<typeof timeoutsSchema>;
    }
  | {
      mode: "embedded";
      seed: number;
      density?: number | undefined;
      timeouts: z.output<typeof timeoutsSchema>;
    };

const REMOTE_KEYS = ["base_url", "auth_url", "client_id", "client_secret"] as const;

export const serviceSchema = z
  .strictObject({
    embedded: z
      .boolean()
      .optional()
      .describe("true starts the emulator in-process and exports from it (no credentials). Default false."),
    seed: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Embedded only: seed of the generated data. Default 1."),
    density: z
      .number()
      .positive()
      .optional()
      .describe("Embedded only: records generated per hour per domain; the emulator's default when omitted."),
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
  })
  .superRefine((service, ctx) => {
    if (service.embedded === true) {
      for (const key of REMOTE_KEYS) {
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
    for (const key of ["seed", "density"] as const) {
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
  .transform((service): ServiceConfig =>
    service.embedded === true
      ? { mode: "embedded", seed: service.seed ?? 1, density: service.density, timeouts: service.timeouts }
      : {
          mode: "remote",
          base_url: service.base_url ?? "",
          auth_url: service.auth_url ?? "",
          client_id: service.client_id ?? "",
          client_secret: service.client_secret ?? "",
          timeouts: service.timeouts,
        },
  )
  .describe(
    "The service to export from: { base_url, auth_url, client_id, client_secret } or { embedded: true }.",
  );

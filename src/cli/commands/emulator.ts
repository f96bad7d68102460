// `mdq-export emulator`: runs the embedded Monitoring Data Query Service until stopped, printing its URL
// and its own demo credentials (they grant access to generated data only).
import { once } from "node:events";
import { parseArgs } from "node:util";
import { errorMessage } from "../../errors.js";
import type { Command } from "../io.js";
import { EXIT } from "../io.js";
import { startEmulator } from "../../emulator/server.js";
import type { EmulatorOptions, FaultOptions, PartitionFormat } from "../../emulator/server.js";
import { DATA_FLAGS, parseDataChanges } from "./emulator-data-flags.js";
import { emulatorCredentials, exposureWarning } from "../emulator-credentials.js";
import { listenFailure } from "../listen-failure.js";

const EMULATOR_HELP = `Usage: mdq-export emulator [options]

Runs the embedded Monitoring Data Query Service (v1, v2, v3 and the token endpoint) on one address.

Options:
  --port N                 port to listen on (default 8787; 0 picks a free one)
  --host H                 address to bind (default 127.0.0.1)
  --seed N                 seed of the generated data and of fault draws (default 1)
  --density N              mean records per hour per domain, application and app_type (default 60)
  --domains a,b            domains the wildcard * stands for
  --client-id ID           client id (default mdq-demo)
  --client-secret S        client secret (default mdq-demo-secret; visible to other users in ps:
                           prefer --client-secret-file or MDQ_EMULATOR_CLIENT_SECRET)
  --client-secret-file F   read the client secret from file F (one line)
                           the client id may also come from MDQ_EMULATOR_CLIENT_ID
  --max-buckets N          buckets one aggregation response may hold; more answer 400 (default 65535)
  --quota N                daily requests per client (default 100000), per --quota-day-ms MS (default 86400000)
  --payload-limit BYTES    v3 query responses above this get 413 (default 16777216)
  --partition-seconds N    time slice of one batch partition (default 3600)
  --ready-after-polls N    status polls before a partition completes (default 1)
  --failing-partitions L   comma-separated workload partition indexes that fail
  --partition-format F     ndjson | ndjson-gzip | json-array (default ndjson-gzip)
  --error-rate R           share of requests answered 500/502/503 (0..1)
  --rate-limit-rate R      share of requests answered 429
  --retry-after N          Retry-After seconds of injected 429s (default 1)
  --reset-rate R           share of responses whose connection is reset mid-body
  --truncate-rate R        share of responses cut short
  --context-loss-rate R    share of paging requests whose context is lost (404)
  --revocation-rate R      share of requests whose token is treated as revoked (401)
  --latency-ms N           added delay per request; --jitter-ms N adds up to N more
  --add-field K:NAME:TYPE  kind K's mappings and records gain a field (TYPE: keyword, text, date,
                           float, boolean, long, integer, alias); repeatable
  --remove-field K:NAME    kind K's mappings and records lose a field; repeatable
  --retype-field K:NAME:TYPE  kind K's field changes type (values converted); repeatable
  --late-records K:START/END:N  N more records per stream in each hour START..END touches; repeatable
  --lost-records K:START/END:N  N fewer records per stream in each hour START..END touches; repeatable
  --indexed-until TIME     records at or after TIME are not searchable yet (still being indexed)
  --awkward[=PARTS]        records carry awkward values the spec allows: all parts, or those named
                           (int64, unicode, nesting, dates, repeatedKeys, hitKeys, conflicts; comma-
                           separated); see docs/emulator.md, "Awkward data"
  --control                serve POST /_emulator/fields, late-records, lost-records and
                           indexed-until to change the data while it runs (no authentication: keep
                           it on 127.0.0.1)
  --report-requests        on stop, print the requests received per path as one JSON line on stderr
  -h, --help               this text
`;

const FORMATS: readonly PartitionFormat[] = ["ndjson", "ndjson-gzip", "json-array"];

/** The numeric flags: the option each sets and the largest value it takes (a rate is a share, 0..1). */
const NUMBER_FLAGS = {
  port: ["port", 65_535],
  seed: ["seed"],
  density: ["density"],
  "max-buckets": ["maxBuckets"],
  quota: ["quota"],
  "quota-day-ms": ["quotaDayMs"],
  "payload-limit": ["payloadLimitBytes"],
  "partition-seconds": ["batchPartitionSeconds"],
  "ready-after-polls": ["batchReadyAfterPolls"],
} as const satisfies Record<string, readonly [keyof EmulatorOptions, number?]>;

const FAULT_FLAGS = {
  "error-rate": ["errorRate", 1],
  "rate-limit-rate": ["rateLimitRate", 1],
  "retry-after": ["retryAfterSeconds"],
  "reset-rate": ["resetRate", 1],
  "truncate-rate": ["truncateRate", 1],
  "context-loss-rate": ["contextLossRate", 1],
  "revocation-rate": ["tokenRevocationRate", 1],
  "latency-ms": ["latencyMs"],
  "jitter-ms": ["jitterMs"],
} as const satisfies Record<string, readonly [keyof FaultOptions, number?]>;

const TEXT_FLAGS = [
  "host",
  "domains",
  "client-id",
  "client-secret",
  "client-secret-file",
  "failing-partitions",
  "partition-format",
] as const;

/** The options a table's flags set, each checked to be a number from 0 to its largest. */
function numbers(
  table: Record<string, readonly [string, number?]>,
  values: Record<string, unknown>,
): Record<string, number> {
  const options: Record<string, number> = {};
  for (const [name, [option, max = Infinity]] of Object.entries(table)) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > max)
      throw new Error(`--${name}: "${String(raw)}" is not a number between 0 and ${max}`);
    options[option] = value;
  }
  return options;
}

/** Turns the command line into emulator options; throws with the flag, the value and what is allowed. */
export function parseEmulatorArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): EmulatorOptions | "help" {
  const strings = [...Object.keys(NUMBER_FLAGS), ...Object.keys(FAULT_FLAGS), ...TEXT_FLAGS];
  const { values } = parseArgs({
    // `--awkward` alone means every part: parseArgs has no optional values, so it is spelled out.
    args: argv.map((arg) => (arg === "--awkward" ? "--awkward=all" : arg)),
    options: {
      ...Object.fromEntries(strings.map((name) => [name, { type: "string" as const }])),
      ...DATA_FLAGS,
      control: { type: "boolean" },
      "report-requests": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) return "help";
  const v = values as Record<string, unknown>;
  const text = (name: (typeof TEXT_FLAGS)[number]) => (typeof v[name] === "string" ? v[name] : undefined);
  const format = text("partition-format");
  if (format !== undefined && !FORMATS.includes(format as PartitionFormat)) {
    throw new Error(`--partition-format: "${format}" is not one of ${FORMATS.join(", ")}`);
  }
  const list = (name: "domains" | "failing-partitions") =>
    text(name)
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const faults = numbers(FAULT_FLAGS, v);
  const credentials = emulatorCredentials(
    { id: text("client-id"), secret: text("client-secret"), secretFile: text("client-secret-file") },
    env,
  );
  const options: EmulatorOptions = {
    port: 8787,
    ...numbers(NUMBER_FLAGS, v),
    host: text("host"),
    domains: list("domains"),
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    failingPartitions: list("failing-partitions")?.map(Number),
    partitionFormat: format as PartitionFormat | undefined,
    faults,
    ...parseDataChanges(values),
    control: values.control === true ? true : undefined,
  };
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as EmulatorOptions;
}

export const runEmulatorCommand: Command = async (argv, io) => {
  let options: EmulatorOptions | "help";
  try {
    options = parseEmulatorArgs(argv, io.env);
  } catch (error) {
    io.stderr.write(`mdq-export emulator: ${errorMessage(error)}\n\n${EMULATOR_HELP}`);
    return EXIT.invalid;
  }
  if (options === "help") {
    io.stdout.write(EMULATOR_HELP);
    return EXIT.ok;
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      ...options,
      onInternalError: (error, reference) =>
        io.stderr.write(
          `emulator: internal error ${reference}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        ),
    });
  } catch (error) {
    const message = listenFailure(error, options.host ?? "127.0.0.1", options.port ?? 8787);
    if (message === undefined) throw error;
    io.stderr.write(`mdq-export emulator: ${message}\n`);
    return EXIT.invalid;
  }
  const warning = exposureWarning(emulator.options.host, emulator.clientSecret);
  if (warning !== undefined) io.stderr.write(`${warning}\n`);
  // A secret the user supplied stays where it came from; the demo one is printed for copy and paste.
  const supplied = options.clientSecret !== undefined;
  const secret = supplied ? "(the one you supplied)" : emulator.clientSecret;
  io.stdout.write(
    [
      `Monitoring Data Query Service emulator listening on ${emulator.url}`,
      `  base URL and auth URL: ${emulator.url}  (token: POST ${emulator.url}/oauth2/token)`,
      `  client_id: ${emulator.clientId}`,
      supplied
        ? `  client_secret: ${secret}`
        : `  client_secret: ${secret}   (the emulator's own demo credentials)`,
      "For pipelines that read the service from the environment:",
      `  export MDQ_BASE_URL=${emulator.url} MDQ_AUTH_URL=${emulator.url} MDQ_CLIENT_ID=${emulator.clientId} MDQ_CLIENT_SECRET=${supplied ? "…" : secret}`,
      `Stop with Ctrl-C.`,
      "",
    ].join("\n"),
  );
  try {
    if (!io.signal.aborted) await once(io.signal, "abort");
  } finally {
    await emulator.close();
    // For benchmarks: the requests a client made, counted by the service side.
    if (argv.includes("--report-requests"))
      io.stderr.write(`${JSON.stringify({ requests: emulator.requestCounts() })}\n`);
  }
  return EXIT.ok;
};

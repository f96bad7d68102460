// `mdq-export fields`: a kind's mapped fields with their search-engine and output column types, from
// the service named by a pipeline or from the embedded emulator.
import { loadPipeline } from "../../config/load-pipeline.js";
import { serviceSchema } from "../../config/service-schema.js";
import { mappingTypeToColumnType } from "../../core/columns-from-mappings.js";
import type { DataKind } from "../../api/wire/fields.js";
import type { KindTable } from "../../components/registry.js";
import { kindOf } from "../../components/environment.js";
import { argumentError, parseCommandArgs, showedHelp } from "../command-options.js";
import { LOG_FORMAT_OPTION, commandLogger } from "../command-logger.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { openSession } from "../../pipeline/run/session.js";
import { escapedName } from "../../warehouse/show-name.js";

const FIELDS_USAGE = `Usage: mdq-export fields PIPELINE.yaml
       mdq-export fields --kind KIND [--application APP] [--app-type TYPE]

Lists the fields the service maps for a kind (from the v3 mappings operations; billing, which has
none, from the summary's field table), with the search engine's type and the column type they get
in Parquet. With a pipeline file, its service and source are used; with --kind, the embedded
emulator answers.

Options:
  --kind KIND          logs, workloads, jobs, tickets, metrics or billing
  --application APP    logs: atr, klewer, eventops, quasar, agentmanager; metrics: atr, klewer, quasar
  --app-type TYPE      logs: ec2, kubernetes, serverless; metrics: ec2, kubernetes
  --json               print JSON
  --log-level LEVEL    default warn (MDQ_LOG_LEVEL)
  --log-format F       json or pretty (default: pretty on a terminal, else json; MDQ_LOG_FORMAT)
  -h, --help           show this help`;

function isKind(kinds: KindTable, value: string): value is DataKind {
  return Object.hasOwn(kinds, value);
}

export const fieldsCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      help: { type: "boolean", short: "h" },
      kind: { type: "string" },
      application: { type: "string" },
      "app-type": { type: "string" },
      json: { type: "boolean" },
      "log-level": { type: "string" },
      ...LOG_FORMAT_OPTION,
      debug: { type: "boolean" },
    },
    FIELDS_USAGE,
  );
  if (showedHelp(values, io, FIELDS_USAGE)) return EXIT.ok;
  const log = commandLogger(values, io, "warn");
  const { kinds } = io.components;
  let service;
  let source;
  if (positionals.length === 1) {
    const pipeline = await loadPipeline(positionals[0] as string, { env: io.env, components: io.components });
    service = pipeline.service;
    source = pipeline.source;
  } else if (values.kind !== undefined && positionals.length === 0) {
    const kind = values.kind;
    if (!isKind(kinds, kind))
      throw argumentError("--kind", `--kind "${kind}" is not one of ${Object.keys(kinds).join(", ")}`);
    // The schema's defaults, so the emulator here runs under the same timeouts and limits as a pipeline's.
    service = serviceSchema.parse({ embedded: true, seed: 1 });
    const serverless = values.application === "eventops" || values.application === "agentmanager";
    // A kind without applications (billing) takes no app type either; the others' mappings want both.
    const scoped = kindOf(io.components, kind).applications.length > 0;
    source = {
      kind,
      application: scoped ? (values.application ?? "atr") : undefined,
      app_type: scoped ? [values["app-type"] ?? (serverless ? "serverless" : "ec2")] : [],
      includes_eu: true,
    };
  } else {
    throw argumentError("arguments", "give a pipeline file or --kind", FIELDS_USAGE);
  }
  const session = await openSession(service, { log, quotaReserve: 0 });
  try {
    const fields = await kindOf(io.components, source.kind).mappings(session.client, source, io.signal);
    if (values.json === true) {
      io.stdout.write(
        `${JSON.stringify(
          fields.map((field) => ({ ...field, column_type: mappingTypeToColumnType(field.type) })),
          null,
          2,
        )}\n`,
      );
    } else {
      // The service's names and types, escaped: a control character must not reach the terminal raw.
      const names = fields.map((field) => escapedName(field.name));
      const width = names.reduce((widest, name) => Math.max(widest, name.length), 5) + 2;
      io.stdout.write(`${"field".padEnd(width)}${"type".padEnd(10)}column\n`);
      fields.forEach((field, index) => {
        const type = escapedName(field.type).padEnd(10);
        io.stdout.write(`${names[index]?.padEnd(width)}${type}${mappingTypeToColumnType(field.type)}\n`);
      });
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
};

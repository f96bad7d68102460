// Loading a pipeline file: read it defensively, interpolate ${ENV}, validate with the schema, and
// report every problem with file, line and column. The only way code outside config/ gets a Pipeline.
import { readFile, stat } from "node:fs/promises";
import type { Components } from "../components/environment.js";
import { ConfigError, isConfigError } from "../errors.js";
import type { ConfigIssue } from "../errors.js";
import { interpolate, formatPath, pathKey } from "./interpolate.js";
import type { Env } from "./interpolate.js";
import { createPipelineSchema } from "./pipeline-schema.js";
import type { Pipeline } from "./pipeline-schema.js";
import { applyOverrides, overrideOf } from "./window-overrides.js";
import type { WindowOverrides } from "./window-overrides.js";
import { retype } from "./retype-variables.js";
import { checkPipelineSize, locate, parseYamlSource, refuse, toData, valueAt } from "./yaml-source.js";
import type { PathSegment, YamlSource } from "./yaml-source.js";
import { describeIssues, pipelineErrorMap } from "./zod-issues.js";

export interface LoadOptions {
  /** Variables for `${VAR}`; pass the process environment from the CLI, a fixed object in tests. */
  env: Env;
  /** The instant date-math resolves against. Default: the current time. */
  now?: Date;
  /** Window bounds from the command line (`--start`, `--end`), replacing the file's. */
  overrides?: WindowOverrides;
  /** Receives problems that do not stop the run (a deprecated API). */
  onWarning?: (issue: ConfigIssue) => void;
  /**
   * For commands that request nothing (verify, merge-manifests): the `service` section is neither
   * interpolated nor checked, so they run without the service's credentials in the environment.
   */
  withoutService?: boolean;
  /**
   * The transforms, formats, destinations and data kinds the pipeline may name (the caller's
   * environment: `defaultComponents()` for the built-in ones). Run the pipeline with the same one.
   */
  components: Components;
}

/** What linting a pipeline without its variables found: the pipeline, unless an unset value hides it. */
interface LintResult {
  pipeline: Pipeline | undefined;
  /** Variables not set, whose values were not checked. */
  unset: string[];
}

/** Reads and validates a pipeline file; throws ConfigError listing every problem. */
export async function loadPipeline(file: string, options: LoadOptions): Promise<Pipeline> {
  return parsePipeline(await readPipelineFile(file), file, options);
}

/**
 * Checks a pipeline file without the deployment's variables (`validate --no-env`): an unset `${VAR}`
 * is not an error, and the value it would give is not checked; everything else is. Throws ConfigError.
 */
export async function lintPipeline(file: string, options: LoadOptions): Promise<LintResult> {
  return checkPipeline(await readPipelineFile(file), file, options, true);
}

async function readPipelineFile(file: string): Promise<string> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw refuse(file, "is not a file");
    checkPipelineSize(file, info.size);
    return await readFile(file, "utf8");
  } catch (error) {
    if (isConfigError(error)) throw error;
    const reason = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    throw refuse(file, `cannot read the pipeline file (${reason})`, undefined, error);
  }
}

/** Validates pipeline text; `fileName` is used in messages only. */
export function parsePipeline(text: string, fileName: string, options: LoadOptions): Pipeline {
  const { pipeline } = checkPipeline(text, fileName, options, false);
  // Without allowUnset every unset variable is an issue, so a failed parse has thrown already.
  if (pipeline === undefined) throw configError(fileName, []);
  return pipeline;
}

function checkPipeline(
  text: string,
  fileName: string,
  options: LoadOptions,
  allowUnset: boolean,
): LintResult {
  const source = parseYamlSource(text, fileName);
  if (options.withoutService === true && source.document.has("service")) {
    source.document.set("service", source.document.createNode({ embedded: true }));
  }
  const interpolation = interpolate(source, options.env, { allowUnset });
  const issues: ConfigIssue[] = [...interpolation.issues];
  const failed = new Set([...interpolation.issues.map((issue) => issue.path), ...interpolation.unset.paths]);
  const unset = [...interpolation.unset.names].sort();
  const data = toData(source);
  const secrets = secretPaths(data);
  for (const path of secrets) {
    const written = typeof valueAt(data, path) === "string" && !interpolation.interpolated.has(pathKey(path));
    if (written && !failed.has(formatPath(path))) {
      issues.push(
        issueAt(
          source,
          path,
          `${path.at(-1)} is written in the file; secrets come in only through \${ENV} (for example \${MDQ_CLIENT_SECRET}) so they stay out of version control, diffs and logs`,
        ),
      );
    }
  }
  applyOverrides(data, options.overrides);
  // limits.encode_threads no longer changes anything (worker threads are gone); an empty value is null.
  if (valueAt(data, ["limits", "encode_threads"]) !== undefined) {
    options.onWarning?.(
      issueAt(
        source,
        ["limits", "encode_threads"],
        "limits.encode_threads is deprecated and has no effect: Parquet is encoded on the main thread; remove the key",
      ),
    );
  }
  const schema = createPipelineSchema(options.now ?? new Date(), options.components);
  let result = schema.safeParse(data, PARSE_OPTIONS);
  if (!result.success && retype(data, result.error.issues, interpolation.retypable)) {
    result = schema.safeParse(data, PARSE_OPTIONS);
  }
  if (!result.success) {
    const isSecret = (path: readonly PathSegment[]) => secrets.some((at) => pathKey(at) === pathKey(path));
    for (const problem of describeIssues(result.error.issues, isSecret)) {
      const path = formatPath(problem.path);
      if (failed.has(path)) continue;
      const override = overrideOf(problem.path, options.overrides);
      issues.push(
        override === undefined
          ? issueAt(source, problem.path, problem.message, problem.atKey)
          : { path, message: `${problem.message} (from ${override})`, file: fileName },
      );
    }
  }
  if (issues.length > 0) throw configError(fileName, issues);
  if (!result.success) return { pipeline: undefined, unset };
  const pipeline = result.data;
  if (pipeline.source.kind === "logs" && pipeline.source.api === "v1") {
    options.onWarning?.(
      issueAt(source, ["source", "api"], "the v1 logs API is deprecated since 2026-03-01; use api: v2"),
    );
  }
  return { pipeline, unset };
}

const PARSE_OPTIONS = { reportInput: true, error: pipelineErrorMap } as const;

function issueAt(
  source: YamlSource,
  path: readonly PathSegment[],
  message: string,
  atKey = false,
): ConfigIssue {
  return { path: formatPath(path), message, file: source.file, ...locate(source, path, atKey) };
}

function configError(file: string, issues: ConfigIssue[]): ConfigError {
  const sorted = [...issues].sort(
    (a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
  );
  const lines = sorted.map((issue) => {
    const where =
      issue.line === undefined ? (issue.file ?? file) : `${issue.file ?? file}:${issue.line}:${issue.column}`;
    return `  ${where}: ${issue.path === "" ? "" : `${issue.path}: `}${issue.message}`;
  });
  const count = sorted.length === 1 ? "1 problem" : `${sorted.length} problems`;
  return new ConfigError(`${file}: ${count} in the pipeline:\n${lines.join("\n")}`, sorted);
}

/** Where a secret may be set: the service's client secret, and each redact step's salt. */
function secretPaths(data: unknown): PathSegment[][] {
  const steps = valueAt(data, ["transforms"]);
  return [
    ["service", "client_secret"],
    ...(Array.isArray(steps) ? steps.map((_, index) => ["transforms", index, "redact", "salt"]) : []),
  ];
}

// `${VAR}` and `${VAR:-default}` in scalar values, substituted after parsing, so a variable's value is
// always text in one scalar and can never add keys, lists or anchors. `$${` writes a literal `${`.
// When VAR is unset, `${VAR}` reads the file named by VAR_FILE, as Kubernetes and Docker secrets provide.
import { readFileSync, statSync } from "node:fs";
import { isMap, isPair, isScalar, isSeq, Scalar } from "yaml";
import type { ConfigIssue } from "../errors.js";
import type { PathSegment, YamlSource } from "./yaml-source.js";

export type Env = Readonly<Record<string, string | undefined>>;

interface Interpolation {
  /** Paths (joined by `pathKey`) of values that came from at least one variable. */
  interpolated: Set<string>;
  /** Plain (unquoted) scalars that were one variable only: their text may be read as a number or boolean. */
  retypable: Set<string>;
  issues: ConfigIssue[];
  /** Variables left unset where `allowUnset` let them be, and the paths of their values (not checked). */
  unset: { names: Set<string>; paths: Set<string> };
}

interface InterpolateOptions {
  /**
   * An unset variable (no value, no file, no default) is not an error: its value is left unchecked.
   * For linting a pipeline where the deployment's variables are not at hand (`validate --no-env`).
   */
  allowUnset?: boolean;
}

/** A secret file larger than this is not a secret but a mistake (a directory listing, a log). */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

const REFERENCE = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const INNER = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([^]*))?$/;

export function pathKey(path: readonly PathSegment[]): string {
  return path.map(String).join("\u0000");
}

/** Settings whose value is a secret: never given a default in the file, read from a file instead. */
const SECRET_KEY = /secret|password|passwd|token|credential/i;

/** The message for `${NAME}` with neither NAME nor NAME_FILE set: a secret's way is NAME_FILE, not a default. */
function unsetMessage(name: string, path: readonly PathSegment[]): string {
  if (SECRET_KEY.test(String(path.at(-1) ?? ""))) {
    return `environment variable ${name} is not set; set it, or set ${name}_FILE to the path of a file that holds the secret (a mounted Kubernetes or Docker secret); a secret has no default`;
  }
  return `environment variable ${name} is not set; set it, set ${name}_FILE to a file that holds the value, or write \${${name}:-default}`;
}

/** Substitutes variables in every scalar value of the document, in place. */
export function interpolate(source: YamlSource, env: Env, options: InterpolateOptions = {}): Interpolation {
  const result: Interpolation = {
    interpolated: new Set(),
    retypable: new Set(),
    issues: [],
    unset: { names: new Set(), paths: new Set() },
  };

  function walk(node: unknown, path: PathSegment[]): void {
    if (isMap(node)) {
      for (const pair of node.items) {
        // Keys are never interpolated: a variable cannot rename or add a setting.
        if (isPair(pair) && isScalar(pair.key)) walk(pair.value, [...path, String(pair.key.value)]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index]));
    } else if (isScalar(node) && typeof node.value === "string" && node.value.includes("${")) {
      substitute(node, path);
    }
  }

  function substitute(node: Scalar, path: PathSegment[]): void {
    const text = node.value as string;
    let references = 0;
    let failed = false;
    /** Records a problem at the reference `needle` inside the scalar; the reference becomes "". */
    const refuse = (needle: string, message: string): string => {
      failed = true;
      result.issues.push(issueAt(source, node, path, needle, message));
      return "";
    };
    const output = text.replace(REFERENCE, (match: string, inner: string | undefined) => {
      if (match === "$${") return "${";
      references += 1;
      const parsed = inner === undefined ? null : INNER.exec(inner);
      if (parsed === null) {
        const shown = inner === undefined ? "${" : match;
        return refuse(shown, `"${shown}" is not a variable reference: write \${NAME} or \${NAME:-default}`);
      }
      const [, name = "", fallback] = parsed;
      const value = env[name];
      if (value !== undefined && value !== "") return value;
      // A VAR_FILE that cannot be read is an error even with a default: the file was meant.
      const fromFile = readVariableFile(name, env);
      if (fromFile !== undefined && "error" in fromFile) return refuse(`\${${name}`, fromFile.error);
      if (fromFile !== undefined && fromFile.value !== "") return fromFile.value;
      if (fallback !== undefined) return fallback;
      if (fromFile !== undefined) {
        const file = env[`${name}_FILE`] ?? "";
        return refuse(
          `\${${name}`,
          `environment variable ${name} is not set and ${name}_FILE=${file} is empty`,
        );
      }
      if (options.allowUnset !== true) return refuse(`\${${name}`, unsetMessage(name, path));
      failed = true;
      result.unset.names.add(name);
      result.unset.paths.add(formatPath(path));
      return "";
    });
    if (references === 0) {
      node.value = output;
      return;
    }
    if (failed) return;
    node.value = output;
    const key = pathKey(path);
    result.interpolated.add(key);
    if (node.type === Scalar.PLAIN && /^\$\{[^}]*\}$/.test(text)) result.retypable.add(key);
  }

  walk(source.document.contents, []);
  return result;
}

/**
 * The value of `${NAME}` from the file named by NAME_FILE, without one trailing line break, or why it
 * cannot be read; undefined when NAME_FILE is not set. A message names the variable and the path,
 * never the content.
 */
function readVariableFile(name: string, env: Env): { value: string } | { error: string } | undefined {
  const variable = `${name}_FILE`;
  const file = env[variable];
  if (file === undefined || file === "") return undefined;
  const refused = (reason: string): { error: string } => ({
    error: `environment variable ${name} is not set and ${variable}=${file} ${reason}`,
  });
  try {
    const info = statSync(file);
    if (!info.isFile()) return refused("is not a file");
    if (info.size > MAX_SECRET_FILE_BYTES) {
      return refused(`is ${info.size} bytes; a secret file holds at most ${MAX_SECRET_FILE_BYTES}`);
    }
    return { value: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    return refused(`cannot be read (${code})`);
  }
}

/** Points at the reference inside the scalar when it can be found in the source text. */
function issueAt(
  source: YamlSource,
  node: Scalar,
  path: PathSegment[],
  needle: string,
  message: string,
): ConfigIssue {
  const [start = 0, end = start] = node.range ?? [];
  const raw = source.text.slice(start, end);
  const offset = raw.indexOf(needle);
  const pos = source.lineCounter.linePos(start + Math.max(0, offset));
  return { path: formatPath(path), message, file: source.file, line: pos.line, column: pos.col };
}

/** `source.window.start`, `sinks[0].to`. */
export function formatPath(path: readonly PathSegment[]): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join("");
}

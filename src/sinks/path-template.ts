// Output names from a template: slice times, sequence and record values, never escaping the root.
import { createHash } from "node:crypto";
import type { Row } from "../core/contracts.js";
import { createColumnReader } from "../formats/column-value.js";
import type { ColumnReader } from "../formats/column-value.js";
import { SinkError } from "../errors.js";

export const DEFAULT_PATH_TEMPLATE = "{slice}-{seq}.{ext}";

/** What Hive, Spark and Athena read as a null partition value. */
export const NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__";

/** Longest value kept as is (UTF-8 bytes); longer ones keep a prefix and a hash of the whole. */
const MAX_VALUE_BYTES = 96;
const MAX_COMPONENT_BYTES = 255;
/** S3's key limit; file systems allow longer paths, but one limit keeps names portable. */
const MAX_PATH_BYTES = 1024;

/** Placeholders filled by the sink, not from records. */
const BUILT_INS: ReadonlySet<string> = new Set(["date", "hour", "slice", "seq", "ext", "run_id"]);

/** Whether `{name}` is filled by the sink (`{date}`, `{slice}`, …) rather than read from a record. */
export function isBuiltInPlaceholder(name: string): boolean {
  return BUILT_INS.has(name.trim());
}

type Part =
  { kind: "text"; text: string } | { kind: "var"; name: string } | { kind: "field"; read: ColumnReader };

export interface TemplateValues {
  slice: { id: string; start: Date };
  runId: string;
  ext: string;
}

interface PathTemplate {
  readonly source: string;
  /** Record fields the template reads (`{atr.domain_name}`); empty when one file per slice suffices. */
  readonly fields: readonly string[];
  /** The built-in placeholders the template holds (`date`, `hour`, `slice`, …), each once. */
  readonly builtIns: ReadonlySet<string>;
  /** Renders everything but `{seq}`: the key that routes a row to its open file. */
  renderKey(values: TemplateValues, row: Row | undefined): string;
  /** Fills `{seq}` in a key and checks the result is a safe relative path. */
  withSeq(key: string, seq: number): string;
}

const SEQ_MARK = "\u0000seq\u0000";

/** Parses once; throws on an unclosed brace or a literal part that could escape the root. */
export function compilePathTemplate(source: string): PathTemplate {
  const parts: Part[] = [];
  const fields: string[] = [];
  const builtIns = new Set<string>();
  for (const match of source.matchAll(/\{([^{}]*)\}|([^{}]+)|([{}])/g)) {
    const [, name, text, stray] = match;
    if (stray !== undefined) throw templateError(source, `an unmatched "${stray}"`);
    if (text !== undefined) {
      parts.push({ kind: "text", text });
    } else if (name !== undefined) {
      const trimmed = name.trim();
      if (trimmed === "") throw templateError(source, "an empty placeholder {}");
      if (BUILT_INS.has(trimmed)) {
        builtIns.add(trimmed);
        parts.push({ kind: "var", name: trimmed });
      } else {
        fields.push(trimmed);
        parts.push({ kind: "field", read: createColumnReader({ name: trimmed, type: "string" }) });
      }
    }
  }
  const literal = parts.map((part) => (part.kind === "text" ? part.text : "x")).join("");
  checkRelativePath(literal, source);

  const cache = new Map<unknown, string>();
  const renderValue = (value: unknown): string => {
    let rendered = cache.get(value);
    if (rendered === undefined) {
      rendered = sanitizePathValue(value);
      // Partition values repeat row after row; a small cache saves re-encoding them.
      if (cache.size < 10_000) cache.set(value, rendered);
    }
    return rendered;
  };

  return {
    source,
    fields,
    builtIns,
    renderKey(values, row) {
      let out = "";
      for (const part of parts) {
        if (part.kind === "text") out += part.text;
        else if (part.kind === "field") out += renderValue(row === undefined ? undefined : part.read(row));
        else out += renderBuiltIn(part.name, values);
      }
      return out;
    },
    withSeq(key, seq) {
      const path = key.split(SEQ_MARK).join(String(seq).padStart(4, "0"));
      checkRelativePath(path, source);
      return path;
    },
  };
}

function renderBuiltIn(name: string, values: TemplateValues): string {
  const iso = values.slice.start.toISOString();
  switch (name) {
    case "date":
      return iso.slice(0, 10);
    case "hour":
      return iso.slice(11, 13);
    case "slice":
      return sanitizePathValue(values.slice.id);
    case "run_id":
      return sanitizePathValue(values.runId);
    case "ext":
      return values.ext;
    default:
      return SEQ_MARK;
  }
}

/**
 * Makes a record value safe as (part of) one path component, the way Hive escapes partition values:
 * `/ \ NUL`, control characters and `" # % ' * : = ? [ ] ^ { }` become `%XX`, so no value can add a
 * directory, climb with `..`, start an absolute path, or hide as a dot file; the escape is reversible.
 */
export function sanitizePathValue(value: unknown): string {
  if (value === null || value === undefined) return NULL_PARTITION;
  const text =
    typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (text === "") return NULL_PARTITION;
  // eslint-disable-next-line no-control-regex
  let escaped = text.replace(/[\u0000-\u001f\u007f"#%'*/:=?[\\\]^{|}]/g, percentEncode);
  // A leading dot would make `.` `..` or a hidden name (our temporary files are hidden).
  if (escaped.startsWith(".")) escaped = "%2E" + escaped.slice(1);
  if (Buffer.byteLength(escaped) <= MAX_VALUE_BYTES) return escaped;
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  return `${truncateUtf8(escaped, MAX_VALUE_BYTES - 17)}~${hash}`;
}

function percentEncode(char: string): string {
  return "%" + char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
}

/** Cuts at a character boundary (never inside a surrogate pair or a %XX escape). */
function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  const cut = text.slice(0, end);
  const escapeStart = cut.lastIndexOf("%");
  return escapeStart >= cut.length - 2 && escapeStart !== -1 ? cut.slice(0, escapeStart) : cut;
}

/**
 * The last check before a name reaches a store: relative, `/`-separated, no empty, `.` or `..`
 * component, no backslash or control character, within length limits.
 */
export function checkRelativePath(path: string, template = path): void {
  if (path.startsWith("/")) throw templateError(template, "an absolute path");
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(path.replaceAll(SEQ_MARK, ""))) {
    throw templateError(template, "a backslash or control character");
  }
  for (const component of path.split("/")) {
    if (component === "" || component === "." || component === "..") {
      throw templateError(template, `a path component "${component}" (empty, . and .. are not allowed)`);
    }
    if (Buffer.byteLength(component) > MAX_COMPONENT_BYTES) {
      throw templateError(template, `a component longer than ${MAX_COMPONENT_BYTES} bytes`);
    }
  }
  if (Buffer.byteLength(path) > MAX_PATH_BYTES)
    throw templateError(template, `a path over ${MAX_PATH_BYTES} bytes`);
}

function templateError(template: string, problem: string): SinkError {
  return new SinkError(
    `path template "${template}" gives ${problem}; use a relative path like ${DEFAULT_PATH_TEMPLATE}`,
    {
      code: "SINK_PATH_INVALID",
    },
  );
}

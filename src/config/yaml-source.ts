// Reading pipeline YAML defensively: size bound, empty files, syntax errors with positions, a
// mapping at the top, and a bound on alias expansion (alias bombs); plus finding a path's line:column.
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { Document, Node } from "yaml";
import { ConfigError } from "../errors.js";
import type { ConfigIssue } from "../errors.js";

/** Pipelines are small; anything past 1 MiB is a mistake or an attack. */
const MAX_PIPELINE_BYTES = 1024 * 1024;

/** Alias expansions allowed when converting to data; a handful of anchors stays far below it. */
const MAX_ALIAS_COUNT = 100;

export interface YamlSource {
  file: string;
  /** The original text, for pointing inside scalars. */
  text: string;
  document: Document.Parsed;
  lineCounter: LineCounter;
}

export type PathSegment = string | number;

export function refuse(
  file: string,
  message: string,
  at?: { line: number; column: number },
  cause?: unknown,
): ConfigError {
  const issue: ConfigIssue = { path: "", message, file, ...at };
  const where = at === undefined ? file : `${file}:${at.line}:${at.column}`;
  return new ConfigError(`${where}: ${message}`, [issue], cause === undefined ? {} : { cause });
}

/** Refuses a pipeline file of more than MAX_PIPELINE_BYTES, before reading it or after. */
export function checkPipelineSize(file: string, bytes: number): void {
  if (bytes > MAX_PIPELINE_BYTES)
    throw refuse(file, `the pipeline file is ${bytes} bytes; the limit is ${MAX_PIPELINE_BYTES} (1 MiB)`);
}

/** Parses the text into a YAML document whose top is a mapping; throws ConfigError otherwise. */
export function parseYamlSource(text: string, file: string): YamlSource {
  checkPipelineSize(file, Buffer.byteLength(text, "utf8"));
  if (text.trim() === "") throw refuse(file, "the pipeline file is empty");
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    keepSourceTokens: true,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const problems = [...document.errors, ...document.warnings];
  if (problems.length > 0) {
    const issues: ConfigIssue[] = problems.map((problem) => {
      // Without prettyErrors yaml gives offsets, not line positions; the line counter converts them.
      const pos = lineCounter.linePos(problem.pos[0]);
      const message = `not valid YAML: ${problem.message.split("\n")[0] ?? problem.code}`;
      return { path: "", message, file, line: pos.line, column: pos.col };
    });
    const [first] = issues as [ConfigIssue, ...ConfigIssue[]];
    throw new ConfigError(`${file}:${first.line}:${first.column}: ${first.message}`, issues);
  }
  if (document.contents === null) throw refuse(file, "the pipeline file is empty (only comments)");
  if (!isMap(document.contents)) {
    const found = isSeq(document.contents) ? "a list" : "a single value";
    throw refuse(
      file,
      `the top level must be a mapping (name:, service:, source:, ...), found ${found}`,
      positionOf({ file, text, document, lineCounter }, document.contents),
    );
  }
  return { file, text, document, lineCounter };
}

/** The document as plain data; refuses documents whose aliases expand beyond the bound. */
export function toData(source: YamlSource): unknown {
  try {
    return source.document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof ReferenceError) {
      throw refuse(
        source.file,
        `YAML aliases expand beyond ${MAX_ALIAS_COUNT} nodes; refused, as such files can exhaust memory (an "alias bomb"); write the values out`,
      );
    }
    throw error;
  }
}

/** The value at `path` in the document's plain data, or undefined when the path leads nowhere. */
export function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  return path.reduce<unknown>(
    (node, segment) =>
      typeof node === "object" && node !== null ? (node as Record<PathSegment, unknown>)[segment] : undefined,
    data,
  );
}

function positionOf(
  source: YamlSource,
  node: Node | null | undefined,
): { line: number; column: number } | undefined {
  const offset = node?.range?.[0];
  if (offset === undefined) return undefined;
  const pos = source.lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/**
 * The line:column of the deepest node on `path`; for an unknown key, the key itself. String segments
 * with dots that are not keys are split greedily (`fields.0`, a rename key `job.id`).
 */
export function locate(
  source: YamlSource,
  path: readonly PathSegment[],
  atKey = false,
): { line: number; column: number } | undefined {
  let node: unknown = source.document.contents;
  let keyNode: unknown;
  const queue = [...path];
  while (queue.length > 0) {
    const segment = queue.shift() as PathSegment;
    if (isAlias(node)) node = node.resolve(source.document);
    if (isSeq(node)) {
      const index = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      const item = node.items[index];
      if (item === undefined) {
        const split = splitSegment(segment, (head) => /^\d+$/.test(head) && node !== undefined);
        if (split === undefined) break;
        queue.unshift(...split);
        continue;
      }
      node = item;
      keyNode = undefined;
    } else if (isMap(node)) {
      const map = node;
      const pair = map.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) {
        const split = splitSegment(segment, (head) =>
          map.items.some((item) => isScalar(item.key) && String(item.key.value) === head),
        );
        if (split === undefined) break;
        queue.unshift(...split);
        continue;
      }
      keyNode = pair.key;
      node = pair.value ?? pair.key;
    } else {
      break;
    }
  }
  const target = atKey && keyNode !== undefined ? keyNode : node;
  return positionOf(source, target as Node);
}

function splitSegment(segment: PathSegment, isHead: (head: string) => boolean): PathSegment[] | undefined {
  if (typeof segment !== "string") return undefined;
  for (let dot = segment.lastIndexOf("."); dot > 0; dot = segment.lastIndexOf(".", dot - 1)) {
    const head = segment.slice(0, dot);
    if (isHead(head)) return [head, segment.slice(dot + 1)];
  }
  return undefined;
}

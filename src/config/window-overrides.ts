// Window bounds given on the command line (`--start`, `--end`) for backfills: applied to the data
// before validation, and named by their flag, not a line, when they are wrong.
import { isWindowWord, WINDOW_WORDS } from "../core/date-math.js";
import { isJsonObject } from "../core/json-object.js";
import type { PathSegment } from "./yaml-source.js";

export interface WindowOverrides {
  start?: string;
  end?: string;
}

type Obj = Record<string, unknown>;

export function applyOverrides(data: unknown, overrides: WindowOverrides | undefined): void {
  if (overrides === undefined || (overrides.start === undefined && overrides.end === undefined)) return;
  if (!isJsonObject(data) || !isJsonObject(data.source)) return;
  const current = data.source.window;
  const window: Obj =
    typeof current === "string" && isWindowWord(current)
      ? { ...WINDOW_WORDS[current] }
      : isJsonObject(current)
        ? { ...current }
        : {};
  if (overrides.start !== undefined) window.start = overrides.start;
  if (overrides.end !== undefined) window.end = overrides.end;
  data.source.window = window;
}

export function overrideOf(
  path: readonly PathSegment[],
  overrides: WindowOverrides | undefined,
): string | undefined {
  if (path[0] !== "source" || path[1] !== "window") return undefined;
  if (path[2] === "start" && overrides?.start !== undefined) return "--start";
  if (path[2] === "end" && overrides?.end !== undefined) return "--end";
  return undefined;
}

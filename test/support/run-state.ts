// The run state as a resume would see it: the state object with the journal entries written after it
// replayed (src/pipeline/output-state/state-journal.ts), read from the files alone, as often as a test polls.
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { PER_SLICE_KEYS } from "../../src/pipeline/output-state/state-schema.js";

export type RunStateFile = Record<string, unknown> & {
  slices: Record<string, Record<string, unknown>>;
  batches: Record<string, Record<string, unknown>>;
};

async function readJsonIfPresent(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** `name` is the state's file name without `.json`: `state`, or `state.shard-0-of-2`. */
export async function readRunState(out: string, name = "state"): Promise<RunStateFile | undefined> {
  const state = await readJsonIfPresent(join(out, "_mdq-export", `${name}.json`));
  if (state === undefined) return undefined;
  const journal = join(out, "_mdq-export", `${name}.journal`);
  const names = (await readdir(journal).catch(() => [] as string[])).filter((entry) =>
    /^\d+\.json$/.test(entry),
  );
  const folded = Number(state["journal_seq"] ?? 0);
  for (const entryName of names.sort()) {
    if (Number(entryName.slice(0, -5)) <= folded) continue;
    const entry = await readJsonIfPresent(join(journal, entryName));
    if (entry === undefined) continue;
    const slice = String(entry["slice"]);
    const values = entry["values"] as Record<string, unknown>;
    for (const key of PER_SLICE_KEYS) {
      const map = ((state[key] as Record<string, unknown> | undefined) ??= {});
      if (values[key] === undefined) delete map[slice];
      else map[slice] = values[key];
    }
  }
  return state as RunStateFile;
}

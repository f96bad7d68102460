// The warehouse-view fuzz on a small fixed budget: generated pipelines and awkward data, each either
// refused before anything is written or read by a warehouse exactly as the emulator holds it. The seed
// is printed; `npm run fuzz -- --seed S --runs N` runs a longer budget, and a failure prints its replay.
import { expect, it } from "vitest";
import { runFuzz } from "./fuzz/fuzz-run.js";

const SEED = Number(process.env["MDQ_FUZZ_SEED"] ?? 29);
const RUNS = 30;

it(`generated pipelines give the warehouse the service's records (seed ${SEED}, ${RUNS} cases)`, async () => {
  console.log(
    `warehouse-view fuzz: seed ${SEED}, ${RUNS} cases (npm run fuzz -- --seed ${SEED} --runs ${RUNS})`,
  );
  const report = await runFuzz({ runs: RUNS, seed: SEED, shrink: false });
  expect(report.failed, report.message).toBe(false);
}, 180_000);

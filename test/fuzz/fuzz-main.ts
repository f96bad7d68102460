// `npm run fuzz -- [--runs N] [--seed S] [--path P] [--no-shrink] [--survey] [--replay CASE_JSON]`:
// the warehouse-view fuzz with a longer budget than `npm test` gives it; prints the seed first.
import { parseArgs } from "node:util";
import { describeCase, replayCase, runFuzz, surveyFuzz } from "./fuzz-run.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    seed: { type: "string" },
    path: { type: "string" },
    "no-shrink": { type: "boolean", default: false },
    survey: { type: "boolean", default: false },
    replay: { type: "string" },
  },
});

const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2_147_483_647;
const runs = Number(values.runs);
const started = Date.now();

if (values.replay !== undefined) {
  const verdict = await replayCase(values.replay);
  console.log(JSON.stringify(verdict, null, 2));
  process.exitCode = verdict.problems.length > 0 ? 1 : 0;
} else if (values.survey) {
  console.log(`warehouse-view fuzz survey: seed ${seed}, ${runs} case(s)`);
  let failed = 0;
  await surveyFuzz(runs, seed, (fuzzCase, verdict, index) => {
    if (verdict.problems.length === 0) {
      const why = verdict.refusal !== undefined ? `: ${verdict.refusal}` : "";
      console.log(`#${index} ok: ${verdict.outcome}, ${verdict.records} records${why}`);
      return;
    }
    failed++;
    console.log(`#${index} FAILED\n${describeCase(fuzzCase, verdict)}\n`);
  });
  console.log(
    `${failed} of ${runs} failed in ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${seed})`,
  );
  process.exitCode = failed > 0 ? 1 : 0;
} else {
  console.log(
    `warehouse-view fuzz: seed ${seed}, ${runs} case(s)${values.path ? `, path ${values.path}` : ""}`,
  );
  const report = await runFuzz({
    runs,
    seed,
    path: values.path,
    shrink: !values["no-shrink"],
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (report.failed) console.log(report.message);
  console.log(
    `${report.failed ? "FAILED" : "passed"}: ${report.runs} case(s) in ${seconds} s, seed ${seed}, outcomes ${JSON.stringify(report.outcomes)}`,
  );
  process.exitCode = report.failed ? 1 : 0;
}

// The window rule of v1 operations (v1 logs, billing): they take one `time_range`
// (`now-<n><unit>/<unit>`), up to now, unsliced.
import type { SourceSection } from "./source-spec.js";
import type { ReportIssue } from "./data-kind.js";

/** The only time_range form v1 operations (v1 logs, billing) accept: `now-<n><unit>/<unit>`. */
const V1_TIME_RANGE = /^now-[1-9]\d*[yMwdhHms]\/[yMwdhHms]$/;

/** Reports a window a v1 operation cannot take; `what` names the source in the messages. */
export function checkV1Window(source: SourceSection, what: string, report: ReportIssue): void {
  const { expression } = source.window;
  if (!V1_TIME_RANGE.test(expression.start)) {
    report(
      ["window", "start"],
      `${what} takes a time_range such as now-7d/d; "${expression.start}" is not of the form now-<n><unit>/<unit>`,
    );
  }
  if (expression.end !== "now") {
    report(["window", "end"], `${what} always ends now; remove end (found "${expression.end}")`);
  }
  if (expression.slice !== "auto") {
    report(["window", "slice"], `${what} cannot be sliced: its time_range is one request`);
  }
}

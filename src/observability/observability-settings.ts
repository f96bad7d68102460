// Where a run's metrics and report go: --metrics-port (and --metrics-address), --pushgateway and
// --report, each also set by an environment variable (the Kubernetes manifests take them from a
// ConfigMap).
import { isIP } from "node:net";
import { escapeControl, redactText } from "../api/redact.js";
import { configErrorAt } from "../errors.js";

export const OBSERVABILITY_OPTIONS = {
  "metrics-port": { type: "string" },
  "metrics-address": { type: "string" },
  pushgateway: { type: "string" },
  report: { type: "string" },
} as const;

export const OBSERVABILITY_USAGE = `  --log-format F      json or pretty (default: pretty on a terminal, else json; MDQ_LOG_FORMAT)
  --metrics-port N    serve Prometheus metrics on :N/metrics while the run lasts (MDQ_METRICS_PORT)
  --metrics-address IP
                      the address to serve them on (default 0.0.0.0, for pods; 127.0.0.1 keeps
                      them on this host; MDQ_METRICS_ADDRESS)
  --pushgateway URL   push metrics to a Prometheus Pushgateway during and after the run
                      (MDQ_PUSHGATEWAY_URL)
  --report FILE       write a JSON report of the run at its end, whatever the outcome; - for stdout
                      (MDQ_REPORT)`;

export type ObservabilityFlags = { [Flag in keyof typeof OBSERVABILITY_OPTIONS]?: string | undefined };

interface ObservabilitySettings {
  metricsPort: number | undefined;
  /** Where the metrics port listens (MDQ_METRICS_ADDRESS, default 0.0.0.0). */
  metricsAddress: string;
  pushgateway: string | undefined;
  report: string | undefined;
  /** Between pushes while the run lasts (MDQ_PUSH_INTERVAL_SECONDS, default 15). */
  pushIntervalMs: number;
  /** One push's whole attempt, the last one included (MDQ_PUSH_TIMEOUT_SECONDS, default 10). */
  pushDeadlineMs: number;
}

/** The flags, else the environment; throws ConfigError (exit 2) naming the setting and its value. */
export function observabilitySettings(
  flags: ObservabilityFlags,
  env: Readonly<Record<string, string | undefined>>,
): ObservabilitySettings {
  const portText = flags["metrics-port"] ?? env.MDQ_METRICS_PORT;
  let metricsPort: number | undefined;
  if (portText !== undefined && portText !== "") {
    metricsPort = Number(portText);
    if (!/^\d+$/.test(portText) || metricsPort > 65535)
      throw configErrorAt("--metrics-port", `--metrics-port "${portText}" is not a port number (0 to 65535)`);
  }
  const metricsAddress = flags["metrics-address"] ?? (env.MDQ_METRICS_ADDRESS || "0.0.0.0");
  if (isIP(metricsAddress) === 0 && metricsAddress !== "localhost")
    throw configErrorAt(
      "--metrics-address",
      `--metrics-address "${escapeControl(metricsAddress)}" is not an IP address; give one of this host's, 0.0.0.0 for all or 127.0.0.1 for this host only`,
    );
  const pushgateway = flags.pushgateway ?? (env.MDQ_PUSHGATEWAY_URL || undefined);
  if (pushgateway !== undefined && (!/^https?:\/\/[^/]/.test(pushgateway) || !URL.canParse(pushgateway))) {
    // Whatever stands before an `@` may be a password, with or without a scheme.
    const shown = escapeControl(redactText(pushgateway).replace(/^[^/@]*@/, "[redacted]@"));
    throw configErrorAt("--pushgateway", `--pushgateway "${shown}" is not an http:// or https:// URL`);
  }
  // Whole seconds, from `min` to `max`, in milliseconds.
  const seconds = (name: string, fallback: string, min: number, max: number): number => {
    const text = env[name] ?? fallback;
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
      throw configErrorAt(
        name,
        `${name} "${text}" is not whole seconds${max < Infinity ? ` from ${min} to ${max}` : ""}`,
      );
    return Number(text) * 1000;
  };
  return {
    metricsPort,
    metricsAddress,
    pushgateway,
    report: flags.report ?? (env.MDQ_REPORT || undefined),
    pushIntervalMs: seconds("MDQ_PUSH_INTERVAL_SECONDS", "15", 0, Infinity),
    pushDeadlineMs: seconds("MDQ_PUSH_TIMEOUT_SECONDS", "10", 1, 60),
  };
}

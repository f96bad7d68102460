// What the client's quota tracker asks before each request when the run shares its daily quota with a
// fleet: a permit from the requests reserved for this run. The quota ledger (quota-ledger/) implements
// it; the client knows only this contract, so it runs the same with or without a ledger.

/**
 * A run's share of the fleet's daily quota, handed out one request at a time from blocks reserved in
 * the ledger.
 * @example
 * await gate.permit("/v3/jobs/query", signal); try { send(); gate.observe(remaining); } finally { gate.answered(); }
 */
export interface QuotaGate {
  /**
   * Resolves once one request may be sent: at once while the reserved block lasts, after a round trip
   * to the ledger when it runs out. Throws (a resumable EtlError) when the run must stop: the fleet's
   * quota is spent, a higher-priority run claims what is left, or the ledger is gone.
   */
  permit(operation: string, signal?: AbortSignal): Promise<void>;
  /** A permitted request's answer came back (or it failed): it no longer counts as held. */
  answered(): void;
  /** A remaining count the service reported. */
  observe(remaining: number): void;
}

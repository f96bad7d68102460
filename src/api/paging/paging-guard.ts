// Cursors are the service's to give, but not to be trusted: a point in time that repeats its
// `search_after`, a scroll that hands back the page it just gave, a cursor that keeps coming past the
// reported total, or more requests than the total and the page size can need, stop the paging with
// PAGING_RUNAWAY instead of spending the day's quota on a loop.
import { ApiError } from "../../errors.js";
import type { OperationPath } from "../wire/operations.js";
import type { StreamedPage } from "./page-stream.js";

/** Requests allowed beyond `ceil(total / page size)`: a factor for shrinking pages, plus a constant. */
const REQUEST_FACTOR = 2;
const REQUEST_EXTRA = 10;

/**
 * A page as the guard sees it: pages stream their hits on, so only the count and the ends are kept,
 * with the total the service reported for the whole query on this page and the page size asked for,
 * if the request carries one.
 */
type GuardedPage = Pick<StreamedPage<OperationPath>, "count" | "first" | "last" | "size"> & {
  total: number | undefined;
};

function idOf(hit: unknown): string | undefined {
  if (hit === null || typeof hit !== "object") return undefined;
  const id = (hit as { _id?: unknown })._id;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** The first and last ids of a page: the same pair twice in a row is the same page twice. */
function pageKey(page: GuardedPage): string | undefined {
  const first = idOf(page.first);
  const last = idOf(page.last);
  return first === undefined || last === undefined ? undefined : `${page.count}\u0000${first}\u0000${last}`;
}

/**
 * @example
 * const guard = new PagingGuard("/v3/jobs/query");
 * guard.page({ count, first, last, total, size }); // after every response
 * guard.cursor(JSON.stringify(searchAfter)); // before following a cursor that must never repeat
 */
export class PagingGuard {
  private requests = 0;
  private records = 0;
  private total: number | undefined;
  private smallestPage: number | undefined;
  private lastPage: string | undefined;
  private readonly cursors = new Set<string>();

  constructor(private readonly operation: string) {}

  /** Notes one answered page; throws when it cannot belong to a paging that ends. */
  page(page: GuardedPage): void {
    this.requests += 1;
    const before = this.records;
    this.records += page.count;
    this.total ??= page.total;
    if (page.count === 0) return;
    if (this.total !== undefined && before >= this.total) {
      this.fail(
        `kept handing out pages past the ${this.total} records it reported (${this.records} received)`,
      );
    }
    const key = pageKey(page);
    if (key !== undefined && key === this.lastPage) this.fail("answered the same page twice in a row");
    this.lastPage = key;
    const size = page.size ?? page.count;
    this.smallestPage = Math.min(this.smallestPage ?? size, size);
    if (this.total !== undefined) {
      const needed = Math.ceil(this.total / Math.max(1, this.smallestPage));
      const allowed = needed * REQUEST_FACTOR + REQUEST_EXTRA;
      if (this.requests > allowed) {
        this.fail(
          `needed ${this.requests} requests for ${this.total} records in pages of ${this.smallestPage} (at most ${allowed} expected)`,
        );
      }
    }
  }

  /** Notes a cursor about to be followed; throws when the same cursor comes back. */
  cursor(value: string): void {
    if (this.cursors.has(value)) this.fail("handed back a cursor it had already given");
    this.cursors.add(value);
  }

  private fail(what: string): never {
    throw new ApiError(
      `${this.operation} ${what}; stopping this slice rather than looping (the service's paging is broken)`,
      { operation: this.operation, retryable: false },
      "PAGING_RUNAWAY",
    );
  }
}

// Tickets: service-management tickets, served by v3 with point-in-time paging and aggregations.
import { pointInTimeKind } from "./point-in-time-kind.js";

export const ticketsKind = pointInTimeKind(
  "tickets",
  "Service-management tickets (v3; point in time, aggs).",
);

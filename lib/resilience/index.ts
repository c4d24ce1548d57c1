/**
 * Waiting out what fails, the same way everywhere: how long to wait before a
 * retry (back-off, a 429's retry-after), the wait itself, retrying within a
 * deadline, bounding a wait, telling people once per interval rather than per
 * failure, and telling a database outage from a bug.
 */
export { backoffDelay, exponentialBackoff, FULL_JITTER, HALF_JITTER, jitterAround, type BackoffPolicy, type Jitter } from "./backoff";
export { codedError, isDatabaseUnreachable } from "./database-unreachable";
export { DeadlineError, isDeadlineExceeded, withDeadline } from "./deadline";
export { createReportGate, throttledReport, type ReportGate } from "./report-gate";
export { rateLimitDelayMs, rateLimitResetMs, retryAfterMs, type HeaderSource } from "./retry-after";
export { retryWithin, type RetryOptions } from "./retry-within";
export { sleep } from "./sleep";

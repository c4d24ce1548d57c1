import { Prng } from "./prng";

/**
 * Failures the cluster can inject into HTTP requests, to test a client's
 * retries: server errors, rate limiting, broken bodies, dropped connections,
 * slow answers and JSON-RPC errors.
 */
export const FAULT_KINDS = ["http500", "http502", "http503", "http429", "malformed", "truncated", "drop", "slow", "rpc_error"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultConfig {
  /** Probability that a request fails (seeded, so repeatable). */
  rate?: number;
  /** Fail exactly every Nth request instead (e.g. 5: one request in five). */
  every?: number;
  /** Kinds to inject, taken in turn; default all but "slow". */
  kinds?: FaultKind[];
  /** Only requests calling one of these methods are eligible (batches: any call). */
  methods?: string[];
  /** Stop after this many faults. */
  limit?: number;
  /** Retry-After header of 429 answers, seconds. */
  retryAfterSeconds?: number;
  /** Delay of "slow" answers, ms. */
  slowMs?: number;
}

export class FaultInjector {
  private config: FaultConfig | null = null;
  private prng: Prng;
  private eligibleCount = 0;
  private injected = 0;
  private nextKind = 0;
  readonly counts: Record<FaultKind, number> = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

  constructor(private readonly seed: string) {
    this.prng = new Prng(`${seed}/faults`);
  }

  configure(config: FaultConfig | null): void {
    this.config = config;
    this.prng = new Prng(`${this.seed}/faults`);
    this.eligibleCount = 0;
    this.injected = 0;
    this.nextKind = 0;
  }

  get current(): FaultConfig | null {
    return this.config;
  }

  get retryAfterSeconds(): number {
    return this.config?.retryAfterSeconds ?? 1;
  }

  get slowMs(): number {
    return this.config?.slowMs ?? 5_000;
  }

  /** The fault to inject into this request, if any. */
  decide(methods: readonly string[]): FaultKind | null {
    const c = this.config;
    if (!c) return null;
    if (c.methods && !methods.some((m) => c.methods?.includes(m))) return null;
    if (c.limit !== undefined && this.injected >= c.limit) return null;
    this.eligibleCount++;
    const fail = c.every !== undefined ? this.eligibleCount % c.every === 0 : this.prng.chance(c.rate ?? 0);
    if (!fail) return null;
    const kinds = c.kinds && c.kinds.length > 0 ? c.kinds : FAULT_KINDS.filter((k) => k !== "slow");
    const kind = kinds[this.nextKind++ % kinds.length] as FaultKind;
    this.injected++;
    this.counts[kind]++;
    return kind;
  }
}

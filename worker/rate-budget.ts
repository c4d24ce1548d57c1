import { sleep } from "../lib/resilience";

/**
 * A token bucket of `perSecond` requests (burst one second's worth): callers
 * wait their turn in order instead of being refused. 0 means no budget.
 */
export class RateBudget {
  private tokens: number;
  private last = Date.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly perSecond: number) {
    this.tokens = perSecond;
  }

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  take(count = 1): Promise<void> {
    if (this.perSecond <= 0) return Promise.resolve();
    const turn = this.queue.then(() => this.wait(Math.min(count, this.perSecond)));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async wait(count: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.tokens >= count) {
        this.tokens -= count;
        return;
      }
      await sleep(((count - this.tokens) / this.perSecond) * 1000);
    }
  }
}

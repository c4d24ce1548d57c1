/**
 * Open streams per client on this process, capped: `take` answers false when
 * the client already holds `max`. The count lives in memory, per process (a
 * stream is a connection to this process, gone when it restarts).
 */
export class ClientSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(client: string): boolean {
    const n = this.open.get(client) ?? 0;
    if (n >= this.max) return false;
    this.open.set(client, n + 1);
    return true;
  }

  release(client: string): void {
    const n = (this.open.get(client) ?? 1) - 1;
    if (n <= 0) this.open.delete(client);
    else this.open.set(client, n);
  }
}

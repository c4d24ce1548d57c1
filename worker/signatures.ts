import type { Logger } from "pino";
import type { Checkpoint } from "../lib/store";
import type { SignatureRef } from "./apply";
import { sleep } from "./rate-budget";
import type { ProgramRpc } from "./rpc";

const PAGE = 1000;

/**
 * The program's signatures after the checkpoint, oldest first. Pages backwards
 * from the tip with `before` only (never `until`, which a node that is behind
 * drops silently, answering with its newest page) until it meets the
 * checkpoint's signature, a signature older than the checkpoint's slot (the
 * checkpoint itself was rolled back), or the program's first signature.
 *
 * An empty page after `before` is either the end of history or a node that
 * does not know `before` (it is behind, or another node behind a balancer
 * answered): the end is trusted only once the node confirms it knows `before`.
 */
export async function signaturesAfter(
  rpc: ProgramRpc,
  checkpoint: Checkpoint,
  log: Logger,
  signal: AbortSignal,
): Promise<SignatureRef[]> {
  const collected: SignatureRef[] = [];
  let before: string | undefined;
  let unknownBefore = 0;
  let pages = 0;
  for (;;) {
    if (signal.aborted) return [];
    const page = await rpc.signaturesBefore(before, PAGE);
    if (page.length === 0) {
      if (before === undefined) break; // the program has no transactions yet
      const [status] = await rpc.statuses([before]);
      if (status) break; // the node knows `before`: this is the program's first signature
      unknownBefore++;
      log.warn({ before, attempt: unknownBefore }, "empty page for a `before` the node does not know: not the end of history; retrying");
      await sleep(Math.min(30_000, 500 * 2 ** Math.min(unknownBefore, 6)), signal);
      continue;
    }
    unknownBefore = 0;
    let reached = false;
    for (const info of page) {
      if (info.signature === checkpoint.lastSignature || (checkpoint.lastSlot !== null && BigInt(info.slot) < checkpoint.lastSlot)) {
        reached = true;
        break;
      }
      collected.push({ signature: info.signature, slot: info.slot });
    }
    if (reached) break;
    before = page.at(-1)!.signature;
    pages++;
    if (pages % 10 === 0) log.info({ collected: collected.length, slot: page.at(-1)!.slot }, "paging back through history");
  }
  return collected.reverse();
}

import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import type { ProgramRpc, SignatureInfo } from "../../worker/rpc";
import { planSignatures } from "../../worker/signatures";

// Planning from a checkpoint against a node's history (newest first), when
// the checkpoint's transaction is there, was rolled back (or landed again
// elsewhere: the same to the planner, until worker/finality.ts settles the
// fork and moves the checkpoint), and from a checkpoint with a slot only.

const quiet = { warn: () => {}, debug: () => {}, info: () => {} } as unknown as Logger;

/** A node whose program history is `history` (newest first); statuses known only for what it lists. */
function node(history: SignatureInfo[]): ProgramRpc {
  return {
    async signaturesBefore(before: string | undefined, limit = 1000) {
      const from = before === undefined ? 0 : history.findIndex((s) => s.signature === before) + 1;
      return from === 0 && before !== undefined ? [] : history.slice(from, from + limit);
    },
    async statuses(signatures: string[]) {
      return signatures.map((sig) => {
        const info = history.find((s) => s.signature === sig);
        return info ? { slot: info.slot } : null;
      });
    },
  } as unknown as ProgramRpc;
}

const at = (signature: string, slot: number): SignatureInfo => ({ signature, slot, err: null });

async function planned(history: SignatureInfo[], checkpoint: { lastSignature: string; lastSlot: bigint }) {
  const plan = await planSignatures(node(history), checkpoint, quiet, new AbortController().signal);
  const out: string[] = [];
  for await (const batch of plan.batches(2)) out.push(...batch.map((s) => s.signature));
  return { plan, out };
}

describe("planSignatures", () => {
  it("plans what follows the checkpoint, oldest first", async () => {
    const { out, plan } = await planned([at("d", 13), at("c", 12), at("b", 11), at("a", 10)], { lastSignature: "b", lastSlot: 11n });
    expect(out).toEqual(["c", "d"]);
    expect(plan.awaitingFork).toBeFalsy();
  });

  it("plans nothing while the checkpoint is rolled back: the winner's transactions above and below its slot wait for finality", async () => {
    // The checkpoint "x" (slot 12) was on a dropped fork; the winner holds "w1" at 11 and "w2" at 13.
    const { out, plan } = await planned([at("w2", 13), at("w1", 11), at("a", 10)], { lastSignature: "x", lastSlot: 12n });
    expect(out).toEqual([]);
    expect(plan.awaitingFork).toBe(true);
  });

  it("from a checkpoint with no signature (set after a fork), plans everything from its slot on", async () => {
    // The finality check moved the checkpoint to slot 11 once the fork was settled: "x" (applied already) is listed
    // again with the rest and skipped when its batch is fetched.
    const history = [at("w3", 13), at("w2", 12), at("x", 11), at("w1", 11), at("a", 10)];
    const plan = await planSignatures(node(history), { lastSignature: null, lastSlot: 11n }, quiet, new AbortController().signal);
    const out: string[] = [];
    for await (const batch of plan.batches(2)) out.push(...batch.map((s) => s.signature));
    expect(out).toEqual(["w1", "x", "w2", "w3"]);
  });
});

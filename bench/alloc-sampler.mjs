// Preloaded by bench/api-gc.ts (`node --import ./bench/alloc-sampler.mjs ...`)
// into the web and the bare server: on SIGUSR2 it starts V8's sampling heap
// profiler, keeping the samples of objects the collector has since freed
// (what a request allocates, not what survives it); on the next SIGUSR2 it
// stops and writes the profile to ALLOC_SAMPLE_FILE. A bench tool only.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const file = process.env.ALLOC_SAMPLE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  let sampling = false;
  process.on("SIGUSR2", () => {
    if (!sampling) {
      sampling = true;
      void post("HeapProfiler.startSampling", { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      return;
    }
    sampling = false;
    void post("HeapProfiler.stopSampling").then(({ profile }) => writeFileSync(file, JSON.stringify(profile)));
  });
}

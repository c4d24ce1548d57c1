// Loaded into a web under test (node --allow-natives-syntax --import this):
// as the process exits, it prints whether V8's StringWrapperToPrimitive
// protector still holds. Any class that extends String, once loaded,
// invalidates it for the whole process, and V8 then takes slower paths in
// string code such as lib/program/decimal.ts's (docs/benchmarks-api.md,
// session 29). V8 versions without it (Node 20's) print "absent".
process.on("exit", () => {
  let state;
  try {
    state = String((0, eval)("%StringWrapperToPrimitiveProtector()"));
  } catch {
    state = "absent";
  }
  process.stdout.write(`string wrapper protector: ${state}\n`);
});

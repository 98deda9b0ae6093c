// Applies patches with the page's own code (web/net.js's applyPatch) under Node:
// reads [[old, ops, new], ...] as JSON on stdin, prints how many came out unlike `new`.
import { applyPatch } from "../src/gloomtable/web/net.js";

function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  return v;
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const cases = JSON.parse(input);
  let unlike = 0;
  for (const [old, ops, want] of cases) {
    if (JSON.stringify(canon(applyPatch(old, ops))) !== JSON.stringify(canon(want))) unlike += 1;
  }
  let refused = 0;
  for (const ops of [[{ op: "replace", path: "/nope", value: 1 }], [{ op: "remove", path: "/a/5" }]]) {
    try { applyPatch({ a: [1] }, ops); } catch { refused += 1; }
  }
  process.stdout.write(JSON.stringify({ cases: cases.length, unlike, refused }));
});

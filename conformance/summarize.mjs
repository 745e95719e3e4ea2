// Summarizes one conformance run from the checks.json files the suite wrote
// with -o DIR: node summarize.mjs DIR
//
// Prints one line: "<passed> <failed> <warnings> <scenarios ok> <scenarios
// failed> <names of failed scenarios, comma-separated or ->". A scenario
// fails when any of its checks is FAILURE or WARNING, as the suite's
// baseline comparison counts it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2];
if (!root) {
  console.error('usage: node summarize.mjs RESULTS_DIR');
  process.exit(2);
}

function* checkFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      yield* checkFiles(p);
    } else if (name === 'checks.json') {
      yield p;
    }
  }
}

let passed = 0;
let failed = 0;
let warnings = 0;
let ok = 0;
const bad = [];
for (const file of checkFiles(root)) {
  const dir = relative(root, join(file, '..'));
  const scenario = dir.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(/^server-/, '');
  let checks;
  try {
    checks = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    bad.push(`${scenario}(unreadable)`);
    continue;
  }
  let scenarioBad = false;
  for (const c of checks) {
    if (c.status === 'SUCCESS') passed++;
    if (c.status === 'FAILURE') failed++;
    if (c.status === 'WARNING') warnings++;
    if (c.status === 'FAILURE' || c.status === 'WARNING') scenarioBad = true;
  }
  if (scenarioBad) bad.push(scenario);
  else ok++;
}
bad.sort();
console.log(`${passed} ${failed} ${warnings} ${ok} ${bad.length} ${bad.length ? bad.join(',') : '-'}`);

#!/usr/bin/env node
// Runs SQL statements in chdb (npm chdb: ClickHouse 26.x embedded in Node), one session, in order.
// The tests use it to execute every rendered migration and every cookbook query on a modern engine.
//
//   NODE_PATH=<dir>/node_modules node scripts/chdb-run.cjs < request.json > results.json
//   request: {"statements": [{"sql": "...", "params": {"name": "value"}?}], "format": "TSVWithNames"?}
//   result:  [{"ok": true, "out": "<text>"} | {"ok": false, "error": "<message>"}], one per statement
//   Statements with "params" run with server-side query parameters ({name:Type}) via queryBind.
// Also: node scripts/chdb-run.cjs --sql "SELECT version()"   (prints the text result)
'use strict';
const { Session } = require('chdb');

function run(session, st, format) {
  try {
    const out = st.params
      ? session.queryBind(st.sql, st.params, format)
      : session.query(st.sql, format);
    return { ok: true, out: out === undefined || out === null ? '' : String(out) };
  } catch (e) {
    return { ok: false, error: String(e && e.message ? e.message : e) };
  }
}

function main() {
  const session = new Session();
  try {
    if (process.argv[2] === '--sql') {
      const r = run(session, { sql: process.argv[3] }, 'TSVWithNames');
      if (!r.ok) {
        process.stderr.write(r.error + '\n');
        process.exitCode = 1;
      } else {
        process.stdout.write(r.out);
      }
      return;
    }
    const request = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    const format = request.format || 'TSVWithNames';
    const results = request.statements.map((st) => run(session, st, format));
    process.stdout.write(JSON.stringify(results));
  } finally {
    if (typeof session.cleanup === 'function') session.cleanup();
  }
}

main();

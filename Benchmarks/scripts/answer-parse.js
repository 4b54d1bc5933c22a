// JSON.parse of delivered answers (ten per batch, as the JS thread receives them at 64 requests in flight):
// the HTTP answer with its 300-byte JSON body escaped in `body` (then parsed again) vs embedded in `json`
// (request's `json: true`). Prints one JSON line: µs per answer each way, three runs. jsbridge or node:
//   .build/release/jsbridge Benchmarks/scripts/answer-parse.js
const body = '{"id":1296269,"login":"octocat","name":"The Octocat","email":"octocat@example.com","company":"GitHub","location":"San Francisco","bio":"A mysterious cat who lives in the octoverse and ships code.","public_repos":8,"followers":3938,"site_admin":false,"score":97.25,"created_at":"2011-01-25T18:44:36Z"}';
const one = (i, raw) => `[${i},0,{"status":200,"statusText":"OK","headers":[["content-type","application/json"],["content-length","300"]],"url":"http://127.0.0.1:39999/user","redirected":false,${raw ? '"json":' + body : '"body":' + JSON.stringify(body)}}]`;
const mk = (raw) => '[' + Array.from({length: 10}, (_, i) => one(i, raw)).join(',') + ']';
const A = mk(false), B = mk(true);
let sink = 0;
function runA(n) { for (let i = 0; i < n; i++) { const arr = JSON.parse(A); for (const m of arr) sink += JSON.parse(m[2].body).id; } }
function runB(n) { for (let i = 0; i < n; i++) { const arr = JSON.parse(B); for (const m of arr) sink += m[2].json.id; } }
const escaped = [], embedded = [];
for (let r = 0; r < 3; r++) {
  let t = performance.now(); runA(20000); escaped.push((performance.now() - t) * 1000 / 200000);
  t = performance.now(); runB(20000); embedded.push((performance.now() - t) * 1000 / 200000);
}
const round = (xs) => xs.map((x) => Number(x.toFixed(2)));
console.log(JSON.stringify({ escapedUsPerAnswer: round(escaped), embeddedUsPerAnswer: round(embedded), sink }));

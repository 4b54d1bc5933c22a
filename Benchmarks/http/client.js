// The JavaScript side of Benchmarks/http/run — one file for jsbridge and for Node 20 (the fetch modes).
//   jsbridge --allow-net=127.0.0.1:PORT client.js <mode> <url> <n> <k> <runs> <warm-up>
//   node client.js fetch <url> <n> <k> <runs> <warm-up>
// n requests with k in flight (k async workers taking the next request number; k = 1 is a plain await
// loop), after a warm-up of <warm-up> requests (sequential, then with k in flight); the best of <runs>
// timed runs. Prints one JSON line: {"mode", "n", "k", "ms" (best run), "perSec", "runsMs"}.
// Modes (every one checks the decoded document, so nothing is skipped):
//   dao          HTTP.dao({ response: { model: "User" } }).send()  — GET, JSON body, Model conversion
//   dao-raw      the same DAO without a model (the parsed JSON as is)
//   request      bridge.call("HTTP", "request", {url, method: "GET"}) + JSON.parse(body): the native
//                action alone, no fetch/DAO JavaScript
//   fetch        (await fetch(url)).json()                          — jsbridge or Node
//   convert      no network: Model.convert("User", JSON.parse(body)) n times (the model step alone)
'use strict';
const [mode, url, n, k, runs, warm] = [
  process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5] ?? 1),
  Number(process.argv[6] ?? 3), Number(process.argv[7] ?? 200),
];
const USER_ID = 1296269;

function check(user) {
  if (user === null || typeof user !== 'object' || user.id !== USER_ID) {
    throw new Error(`unexpected document: ${JSON.stringify(user)}`);
  }
}

function defineUser() {
  // The same fields and key mapping as the Swift peer's Codable struct (Benchmarks/http/peer).
  Model.define('User', {
    id: 'int',
    login: 'string',
    name: 'string',
    email: 'string',
    company: 'string?',
    location: 'string',
    bio: 'string',
    publicRepos: { type: 'int', key: 'public_repos' },
    followers: 'int',
    siteAdmin: { type: 'bool', key: 'site_admin' },
    score: 'double',
    createdAt: { type: 'string', key: 'created_at' },
  });
}

async function makeOne() {
  const u = new URL(url);
  switch (mode) {
    case 'fetch':
      return async () => check(await (await fetch(url)).json());
    case 'request':
      return async () => {
        const r = await bridge.call('HTTP', 'request', { url, method: 'GET', headers: [] });
        if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
        check(JSON.parse(r.body));
      };
    case 'dao':
    case 'dao-raw': {
      if (mode === 'dao') defineUser();
      const dao = HTTP.dao({
        name: 'GetUser', baseURL: u.origin, path: u.pathname, method: 'GET',
        ...(mode === 'dao' ? { response: { model: 'User' } } : {}),
      });
      return async () => {
        const user = await dao.send({});
        if (mode === 'dao' && user.publicRepos !== 8) throw new Error(`not converted: ${JSON.stringify(user)}`);
        check(user);
      };
    }
    case 'convert': {
      defineUser();
      const body = await (await fetch(url)).text();
      return async () => {
        const user = Model.convert('User', JSON.parse(body));
        if (user.publicRepos !== 8) throw new Error(`not converted: ${JSON.stringify(user)}`);
        check(user);
      };
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

async function run(one, count, inFlight) {
  if (inFlight <= 1) {
    for (let i = 0; i < count; i++) await one();
    return;
  }
  let next = 0, done = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await one();
      done++;
    }
  };
  const workers = [];
  for (let w = 0; w < Math.min(inFlight, count); w++) workers.push(worker());
  await Promise.all(workers);
  if (done !== count) throw new Error(`${done} of ${count} requests completed`);
}

async function main() {
  if (!(n > 0) || !(k >= 1) || !url) throw new Error('usage: client.js <mode> <url> <n> <k> <runs> <warm-up>');
  const one = await makeOne();
  await run(one, warm, 1);
  if (k > 1) await run(one, warm, k);
  const times = [];
  for (let r = 0; r < Math.max(1, runs); r++) {
    const t0 = performance.now();
    await run(one, n, k);
    times.push(performance.now() - t0);
  }
  const best = Math.min(...times);
  console.log(JSON.stringify({
    mode, n, k, ms: Number(best.toFixed(3)), perSec: Number((n / best * 1000).toFixed(1)),
    runsMs: times.map((t) => Number(t.toFixed(2))),
  }));
}

main().catch((error) => {
  console.error(`client.js ${mode}: ${error && error.stack || error}`);
  process.exit(1);
});

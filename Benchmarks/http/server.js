// The alternative loopback server (BENCH_HTTP_SERVER=node Benchmarks/http/run): Node 20's http module,
// keep-alive, the same document and routes as peer/Sources/http-server/Server.swift.
//   node server.js [--max-seconds S]   prints {"port": N, "bodyBytes": B} once listening on 127.0.0.1
'use strict';
const http = require('http');
const USER = Buffer.from('{"id":1296269,"login":"octocat","name":"The Octocat","email":"octocat@example.com","company":"GitHub","location":"San Francisco","bio":"A mysterious cat who lives in the octoverse and ships code.","public_repos":8,"followers":3938,"site_admin":false,"score":97.25,"created_at":"2011-01-25T18:44:36Z"}');
const maxSeconds = Number(process.argv[process.argv.indexOf('--max-seconds') + 1] || 3600) || 3600;
let requests = 0;
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  requests++;
  let body = USER, status = 200;
  if (req.url === '/stats') {
    const u = process.cpuUsage();
    body = Buffer.from(JSON.stringify({ requests: requests - 1, cpuMs: (u.user + u.system) / 1000 }));
  } else if (req.url !== '/user') {
    status = 404; body = Buffer.from('{"error":"not found"}');
  }
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: server.address().port, bodyBytes: USER.length }));
});
setTimeout(() => process.exit(0), maxSeconds * 1000).unref();
process.on('SIGTERM', () => process.exit(0));

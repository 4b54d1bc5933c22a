// The hello-world server of the node:http row: the same file runs under jsbridge and under Node 20. It prints
// its port on one line, serves "hello world" to every request, and stops when stdin ends.
const http = require("node:http");
const server = http.createServer((req, res) => {
  res.end("hello world");
});
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: server.address().port }));
});
process.stdin.on("data", () => {});
process.stdin.on("end", () => server.close());

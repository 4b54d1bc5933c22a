// node:http: a server and a client in one script (requests, bodies, chunked responses, status lines,
// keep-alive, back-pressure, close). Expected output recorded from Node 20.
const http = require("node:http");

const big = Buffer.alloc(65536, 120);
const server = http.createServer((req, res) => {
  if (req.url === "/hello") {
    res.end("hello world");
  } else if (req.url === "/echo") {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      res.setHeader("Content-Type", "text/plain");
      res.end(`${req.method} ${req.httpVersion} ${Buffer.concat(chunks)} ${req.headers["x-test"]} ${req.complete}`);
    });
  } else if (req.url === "/chunked") {
    res.writeHead(201, { "X-Kind": "chunks" });
    res.write("a");
    res.write(Buffer.from("b"));
    res.end("c");
  } else if (req.url === "/status") {
    res.statusCode = 404;
    res.setHeader("Set-Cookie", ["a=1", "b=2"]);
    res.end();
  } else if (req.url === "/big") {
    // Writes until the socket pushes back, then waits for 'drain': 64 chunks of 64 KiB in all.
    let left = 64;
    let pushedBack = false;
    const more = () => {
      while (left > 0) {
        left--;
        if (left === 0) {
          res.end(big);
          console.log("server saw back-pressure", pushedBack);
          return;
        }
        if (!res.write(big)) {
          pushedBack = true;
          res.once("drain", more);
          return;
        }
      }
    };
    more();
  } else {
    res.writeHead(500);
    res.end();
  }
});

server.on("listening", () => console.log("listening event"));
server.listen(0, "127.0.0.1", async () => {
  const { port, address, family } = server.address();
  console.log(address, family, typeof port, port > 0, server.listening);
  const send = (path, options = {}, body) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, ...options }, (res) => {
        let size = 0;
        let text = "";
        res.on("data", (chunk) => {
          size += chunk.length;
          if (size < 100) text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode, message: res.statusMessage, headers: res.headers, text, size }));
      });
      req.on("error", reject);
      req.end(body);
    });
  let r = await send("/hello");
  console.log(r.status, r.message, r.text, r.headers["content-length"], r.headers.connection, r.headers["keep-alive"]);
  console.log("date header", typeof r.headers.date, r.headers.date.endsWith("GMT"));
  r = await send("/echo", { method: "POST", headers: { "X-Test": "yes" } }, "payload");
  console.log(r.status, r.text, r.headers["content-type"]);
  r = await send("/chunked");
  console.log(r.status, r.text, r.headers["transfer-encoding"], r.headers["x-kind"], r.headers["content-length"]);
  r = await send("/status");
  console.log(r.status, r.message, r.headers["content-length"], r.headers["set-cookie"]);
  r = await send("/big");
  console.log("big body", r.status, r.size, r.headers["transfer-encoding"]);
  r = await send("/other", { method: "HEAD" });
  console.log("head", r.status, r.size);
  server.close(() => console.log("closed", server.listening, server.address()));
});

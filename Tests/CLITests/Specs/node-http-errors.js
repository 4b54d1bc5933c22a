// node:http's errors: a port in use (EADDRINUSE), a bad port, headers after they were sent, a refused
// connection. Expected output recorded from Node 20.
const http = require("node:http");

try {
  http.createServer().listen(70000);
} catch (error) {
  console.log(error.code, error.name);
}

const first = http.createServer((req, res) => {
  res.end("x");
  try {
    res.setHeader("X-Late", "1");
  } catch (error) {
    console.log("late header:", error.code);
  }
});
first.listen(0, "127.0.0.1", () => {
  const { port } = first.address();
  const second = http.createServer();
  second.on("error", (error) => {
    console.log("second:", error.code, error.syscall, error.address, error.port === port, error.message === `listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
    http.get({ host: "127.0.0.1", port, path: "/" }, (res) => {
      res.resume();
      res.on("end", () => {
        first.close(() => {
          // A port nothing listens on any more (and no pooled connection to it).
          const gone = http.createServer().listen(0, "127.0.0.1", () => {
            const gonePort = gone.address().port;
            gone.close(() => {
          const refused = http.get({ host: "127.0.0.1", port: gonePort, path: "/", agent: false });
          refused.on("error", (error) => {
            console.log("refused:", error.code, error.syscall, error.address, error.port === gonePort);
            try {
              http.request({ host: "127.0.0.1", port, method: "BAD METHOD" });
            } catch (error) {
              console.log(error.code);
            }
          });
            });
          });
        });
      });
    });
  });
  second.listen(port, "127.0.0.1");
});

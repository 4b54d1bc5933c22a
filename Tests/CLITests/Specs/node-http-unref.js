// An unref()'d server does not keep the run alive; a listening one until close(). Recorded from Node 20.
const http = require("node:http");
const server = http.createServer();
server.listen(0, "127.0.0.1", () => console.log("listening", server.listening));
server.unref();
process.on("exit", (code) => console.log("exit", code));
